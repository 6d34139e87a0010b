package dev.stillpoint.backup;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.ProjectionType;
import dev.stillpoint.domain.table.StreamSpecification;
import dev.stillpoint.domain.table.TimeToLive;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import dev.stillpoint.domain.table.LocalSecondaryIndex;
import dev.stillpoint.domain.table.Projection;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.VectorIndex;

/**
 * A table description as JSON, in DescribeTable's field names ({@code TableName}, {@code KeySchema},
 * {@code AttributeDefinitions}, {@code GlobalSecondaryIndexes}, ...), for {@code describe} and the
 * export manifest.
 */
public final class DescriptionJson {

    /** Indented output, for files people read. */
    public static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** One-line output, for JSON-lines files. */
    static final ObjectMapper COMPACT = new ObjectMapper();

    private DescriptionJson() {
    }

    /**
     * {@code d} as JSON; {@code withCounts} adds the running counts (a snapshot's description has
     * them cleared [S2], so the manifest leaves them out).
     *
     * @param d          the description
     * @param withCounts whether to add item counts and sizes
     * @return the JSON object
     */
    public static ObjectNode of(TableDescription d, boolean withCounts) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("TableName", d.tableName());
        n.put("AccountId", d.accountId());
        n.put("TableId", d.tableId());
        n.put("TableArn", d.tableArn());
        n.put("TableStatus", d.status().name());
        n.put("CreationDateTime", d.creationTime().toString());
        n.set("KeySchema", keySchema(d.keySchema()));
        ArrayNode definitions = n.putArray("AttributeDefinitions");
        for (AttributeDefinition a : d.attributeDefinitions()) {
            definitions.addObject().put("AttributeName", a.name()).put("AttributeType", a.type().name());
        }
        if (!d.globalSecondaryIndexes().isEmpty()) {
            ArrayNode gsis = n.putArray("GlobalSecondaryIndexes");
            for (GlobalSecondaryIndex g : d.globalSecondaryIndexes()) {
                ObjectNode gn = gsis.addObject();
                gn.put("IndexName", g.name());
                gn.set("KeySchema", keySchema(g.keySchema()));
                gn.set("Projection", projection(g.projection()));
                gn.put("IndexStatus", g.status().name());
                gn.put("Backfilling", g.backfilling());
                if (withCounts) {
                    gn.put("ItemCount", g.itemCount()).put("IndexSizeBytes", g.sizeBytes());
                }
            }
        }
        if (!d.localSecondaryIndexes().isEmpty()) {
            ArrayNode lsis = n.putArray("LocalSecondaryIndexes");
            for (LocalSecondaryIndex l : d.localSecondaryIndexes()) {
                ObjectNode ln = lsis.addObject();
                ln.put("IndexName", l.name());
                ln.set("KeySchema", keySchema(l.keySchema()));
                ln.set("Projection", projection(l.projection()));
                if (withCounts) {
                    ln.put("ItemCount", l.itemCount()).put("IndexSizeBytes", l.sizeBytes());
                }
            }
        }
        if (!d.vectorIndexes().isEmpty()) {
            ArrayNode vectors = n.putArray("VectorIndexes");
            for (VectorIndex v : d.vectorIndexes()) {
                vectors.addObject().put("IndexName", v.name()).put("AttributeName", v.attributeName())
                        .put("Dimensions", v.dimensions()).put("Metric", v.metric())
                        .put("IndexStatus", v.status().name());
            }
        }
        d.streamSpecification().ifPresent(s -> {
            ObjectNode sn = n.putObject("StreamSpecification").put("StreamEnabled", s.enabled());
            s.viewType().ifPresent(v -> sn.put("StreamViewType", v));
        });
        d.timeToLive().ifPresent(t -> n.putObject("TimeToLiveDescription")
                .put("AttributeName", t.attributeName())
                .put("TimeToLiveStatus", t.enabled() ? "ENABLED" : "DISABLED"));
        d.restoreSummary().ifPresent(r -> {
            ObjectNode rn = n.putObject("RestoreSummary");
            r.sourceBackupArn().ifPresent(a -> rn.put("SourceBackupArn", a));
            r.sourceTableArn().ifPresent(a -> rn.put("SourceTableArn", a));
            rn.put("RestoreDateTime", r.restoreDateTime().toString());
            rn.put("RestoreInProgress", r.restoreInProgress());
        });
        if (withCounts) {
            d.throughputModeSummary().ifPresent(t -> n.putObject("BillingModeSummary")
                    .put("BillingMode", t.mode()).put("LastUpdateToPayPerRequestDateTime", t.lastUpdate().toString()));
            n.put("ItemCount", d.itemCount());
            n.put("TableSizeBytes", d.tableSizeBytes());
        }
        return n;
    }

    private static ArrayNode keySchema(KeySchema k) {
        ArrayNode a = MAPPER.createArrayNode();
        a.addObject().put("AttributeName", k.partitionKey()).put("KeyType", "HASH");
        k.sortKey().ifPresent(s -> a.addObject().put("AttributeName", s).put("KeyType", "RANGE"));
        return a;
    }

    private static ObjectNode projection(Projection p) {
        ObjectNode n = MAPPER.createObjectNode().put("ProjectionType", p.type().name());
        if (!p.nonKeyAttributes().isEmpty()) {
            ArrayNode a = n.putArray("NonKeyAttributes");
            p.nonKeyAttributes().forEach(a::add);
        }
        return n;
    }

    /**
     * {@code node} as indented text.
     *
     * @param node the JSON
     * @return its text
     */
    public static String text(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON: " + e.getMessage(), e);
        }
    }

    /**
     * The CreateTable request that makes a new table of {@code table}'s definition (key schema,
     * attribute definitions, GSIs and LSIs with their projections, stream specification, time to live), as
     * {@link #of} wrote it, under another name.
     *
     * @param table     a description as {@link #of} writes it
     * @param accountId the new table's account
     * @param tableName the new table's name
     * @return the request; it is checked in full on construction
     * @throws IllegalArgumentException naming the field that is missing or of the wrong shape
     */
    public static CreateTableRequest definition(JsonNode table, String accountId, String tableName) {
        List<AttributeDefinition> definitions = new ArrayList<>();
        for (JsonNode a : array(table, "AttributeDefinitions")) {
            definitions.add(new AttributeDefinition(text(a, "AttributeName"),
                    oneOf(ScalarType.class, a, "AttributeType")));
        }
        List<GlobalSecondaryIndex> gsis = new ArrayList<>();
        for (JsonNode g : array(table, "GlobalSecondaryIndexes")) {
            gsis.add(GlobalSecondaryIndex.creating(text(g, "IndexName"), keySchemaOf(g), projectionOf(g)));
        }
        List<LocalSecondaryIndex> lsis = new ArrayList<>();
        for (JsonNode l : array(table, "LocalSecondaryIndexes")) {
            lsis.add(LocalSecondaryIndex.of(text(l, "IndexName"), keySchemaOf(l), projectionOf(l)));
        }
        JsonNode stream = table.path("StreamSpecification");
        Optional<StreamSpecification> spec = stream.isObject()
                ? Optional.of(new StreamSpecification(stream.path("StreamEnabled").asBoolean(),
                        stream.hasNonNull("StreamViewType") ? Optional.of(stream.get("StreamViewType").asText()) : Optional.empty()))
                : Optional.empty();
        return new CreateTableRequest(accountId, tableName, keySchemaOf(table), definitions, gsis, lsis, spec,
                timeToLiveOf(table));
    }

    /** The time-to-live setting as {@link #of} wrote it; ENABLING counts as on, as DynamoDB then expires items. */
    private static Optional<TimeToLive> timeToLiveOf(JsonNode table) {
        JsonNode ttl = table.path("TimeToLiveDescription");
        if (!ttl.isObject()) {
            return Optional.empty();
        }
        String status = text(ttl, "TimeToLiveStatus");
        return Optional.of(new TimeToLive(text(ttl, "AttributeName"),
                status.equals("ENABLED") || status.equals("ENABLING")));
    }

    private static KeySchema keySchemaOf(JsonNode owner) {
        String hash = null;
        Optional<String> range = Optional.empty();
        for (JsonNode k : array(owner, "KeySchema")) {
            switch (text(k, "KeyType")) {
                case "HASH" -> hash = text(k, "AttributeName");
                case "RANGE" -> range = Optional.of(text(k, "AttributeName"));
                default -> throw new IllegalArgumentException("KeyType '" + k.get("KeyType").asText()
                        + "' is neither HASH nor RANGE");
            }
        }
        if (hash == null) {
            throw new IllegalArgumentException("KeySchema has no HASH attribute");
        }
        return new KeySchema(hash, range);
    }

    private static Projection projectionOf(JsonNode index) {
        JsonNode p = index.path("Projection");
        ProjectionType type = oneOf(ProjectionType.class, p, "ProjectionType");
        List<String> nonKey = new ArrayList<>();
        p.path("NonKeyAttributes").forEach(n -> nonKey.add(n.asText()));
        return new Projection(type, nonKey);
    }

    // The constant a field names, or a refusal naming the field, its value and the values it may take.
    private static <E extends Enum<E>> E oneOf(Class<E> type, JsonNode owner, String field) {
        String value = text(owner, field);
        for (E constant : type.getEnumConstants()) {
            if (constant.name().equals(value)) {
                return constant;
            }
        }
        throw new IllegalArgumentException(field + " '" + value + "' is not one of "
                + Arrays.stream(type.getEnumConstants()).map(Enum::name).collect(Collectors.joining(", ")));
    }

    private static Iterable<JsonNode> array(JsonNode owner, String field) {
        JsonNode a = owner.path(field);
        if (a.isMissingNode() || a.isNull()) {
            return List.of();
        }
        if (!a.isArray()) {
            throw new IllegalArgumentException(field + " is not an array");
        }
        return a;
    }

    private static String text(JsonNode owner, String field) {
        JsonNode v = owner.get(field);
        if (v == null || !v.isTextual()) {
            throw new IllegalArgumentException("field " + field + " is missing or not a string");
        }
        return v.asText();
    }
}
