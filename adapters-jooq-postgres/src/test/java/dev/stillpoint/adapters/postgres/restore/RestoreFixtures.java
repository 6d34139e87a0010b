package dev.stillpoint.adapters.postgres.restore;

import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.Projection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The restored table's definition and items, shared by the test and its child JVM. */
final class RestoreFixtures {

    static final String ACCOUNT = "acct";

    private RestoreFixtures() {
    }

    /** A table with a sort key, a GSI on {@code g} (S) and an LSI on {@code l} (N), and a stream. */
    static CreateTableRequest definition(String table) {
        return CreateTableRequest.builder(ACCOUNT, table)
                .partitionKey("pk", ScalarType.S)
                .sortKey("sk", ScalarType.N)
                .globalIndex("byG", "g", ScalarType.S, Projection.all())
                .localIndex("byL", "l", ScalarType.N, Projection.keysOnly())
                .stream("NEW_AND_OLD_IMAGES")
                .build();
    }

    /** Item {@code i}: every even one carries the GSI key, every third one the LSI key. */
    static Item item(int i) {
        Map<String, AttributeValue> a = new LinkedHashMap<>();
        a.put("pk", new AttributeValue.S("p" + (i % 7)));
        a.put("sk", AttributeValue.N.of(Integer.toString(i)));
        a.put("v", new AttributeValue.S("value " + i));
        if (i % 2 == 0) {
            a.put("g", new AttributeValue.S("g" + (i % 5)));
        }
        if (i % 3 == 0) {
            a.put("l", AttributeValue.N.of(Integer.toString(1000 - i)));
        }
        return Item.of(a);
    }

    static List<Item> items(int from, int count) {
        List<Item> out = new ArrayList<>();
        for (int i = from; i < from + count; i++) {
            out.add(item(i));
        }
        return out;
    }
}
