package dev.stillpoint.adapters.cassandra;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.table.IndexStatus;
import dev.stillpoint.domain.table.Projection;
import dev.stillpoint.domain.table.ProjectionType;
import dev.stillpoint.itemjson.ItemJson;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The catalog row's {@code indexes} column, the one JSON column only Cassandra has (the SQL catalogs and
 * MongoDB keep an index per row or document): {@code {"indexes":{"L":[{"M":{"name":..,"kind":{"S":"GSI"},
 * "relation":..,"partition_key":..,"sort_key":..,"projection":{"M":{"type":..,"non_key_attributes":{"L":[..]}}},
 * "status":..,"backfilling":{"BOOL":..}}}]}}}, in index order, written with the one item codec
 * ({@link ItemJson}) so an operator reads it in the same DynamoDB JSON as the items. The other JSON
 * columns ({@code attribute_definitions}, {@code stream_specification}, {@code time_to_live}) are the
 * shared catalog text of {@code dev.stillpoint.itemjson.CatalogJson}.
 */
final class IndexColumn {

    private IndexColumn() {
    }

    static String encode(List<IndexDef> indexes) {
        List<AttributeValue> list = new ArrayList<>();
        for (IndexDef index : indexes) {
            Map<String, AttributeValue> m = new LinkedHashMap<>();
            m.put("name", AttributeValue.s(index.name()));
            m.put("kind", AttributeValue.s(index.global() ? "GSI" : "LSI"));
            m.put("relation", AttributeValue.s(index.relation()));
            m.put("partition_key", AttributeValue.s(index.keySchema().partitionKey()));
            index.keySchema().sortKey().ifPresent(s -> m.put("sort_key", AttributeValue.s(s)));
            Map<String, AttributeValue> projection = new LinkedHashMap<>();
            projection.put("type", AttributeValue.s(index.projection().type().name()));
            projection.put("non_key_attributes", new AttributeValue.L(index.projection().nonKeyAttributes().stream()
                    .map(a -> (AttributeValue) AttributeValue.s(a)).toList()));
            m.put("projection", new AttributeValue.M(projection));
            m.put("status", AttributeValue.s(index.status().name()));
            m.put("backfilling", index.backfilling() ? AttributeValue.Bool.TRUE : AttributeValue.Bool.FALSE);
            list.add(new AttributeValue.M(m));
        }
        return ItemJson.encode(Item.of(Map.of("indexes", new AttributeValue.L(list))));
    }

    static List<IndexDef> decode(String json) {
        if (json == null) {
            return List.of();
        }
        List<IndexDef> out = new ArrayList<>();
        AttributeValue list = ItemJson.decode(json).get("indexes");
        if (!(list instanceof AttributeValue.L l)) {
            throw corrupt("indexes", json);
        }
        for (AttributeValue entry : l.values()) {
            if (!(entry instanceof AttributeValue.M m)) {
                throw corrupt("indexes", json);
            }
            Map<String, AttributeValue> f = m.values();
            String name = text(f.get("name"), "index name");
            KeySchema key = new KeySchema(text(f.get("partition_key"), "index " + name + " partition key"),
                    Optional.ofNullable(f.get("sort_key")).map(v -> text(v, "index " + name + " sort key")));
            if (!(f.get("projection") instanceof AttributeValue.M p)) {
                throw corrupt("index " + name + " projection", json);
            }
            List<String> nonKey = new ArrayList<>();
            if (p.values().get("non_key_attributes") instanceof AttributeValue.L attrs) {
                attrs.values().forEach(v -> nonKey.add(text(v, "index " + name + " projected attribute")));
            }
            Projection projection = new Projection(ProjectionType.valueOf(text(p.values().get("type"), "projection type")),
                    nonKey);
            boolean backfilling = f.get("backfilling") instanceof AttributeValue.Bool b && b.value();
            out.add(new IndexDef(name, "GSI".equals(text(f.get("kind"), "index kind")), key, projection,
                    IndexStatus.valueOf(text(f.get("status"), "index status")), backfilling,
                    DataNames.identifier(text(f.get("relation"), "index relation"))));
        }
        return out;
    }

    private static String text(AttributeValue value, String what) {
        if (value instanceof AttributeValue.S s) {
            return s.value();
        }
        throw StorageException.internal("catalog row is damaged: " + what + " is not a string: " + value, null);
    }

    private static StorageException corrupt(String what, String json) {
        return StorageException.internal("catalog row is damaged: cannot read " + what + " from "
                + (json.length() > 200 ? json.substring(0, 200) + "..." : json), null);
    }
}
