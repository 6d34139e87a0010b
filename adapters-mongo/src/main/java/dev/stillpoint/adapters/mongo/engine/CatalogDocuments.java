package dev.stillpoint.adapters.mongo.engine;

import dev.stillpoint.adapters.mongo.storage.DataCollections;
import dev.stillpoint.adapters.mongo.storage.KeyIds;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.lifecycle.TableState;
import dev.stillpoint.domain.table.CatalogDamage;
import dev.stillpoint.itemjson.CatalogJson;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.IndexStatus;
import dev.stillpoint.domain.table.LocalSecondaryIndex;
import dev.stillpoint.domain.table.Projection;
import dev.stillpoint.domain.table.RestoreSummary;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.out.StorageTable;
import dev.stillpoint.ports.out.TableRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.bson.BsonBoolean;
import org.bson.BsonDateTime;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonNull;
import org.bson.BsonString;
import org.bson.BsonValue;

/**
 * The catalog's documents and how they map to the domain. {@code sp_tables} holds one document per
 * table ({@code _id} the netstring of account and table name, so one name per account is one
 * document); {@code sp_indexes} one per GSI or LSI ({@code _id} {@code <table_id>/<index_name>}).
 * Attribute definitions, projections, the stream and the time-to-live settings are the same DynamoDB JSON texts the SQL
 * catalogs keep ({@link CatalogJson}), so an operator reads them alike everywhere.
 */
final class CatalogDocuments {

    static final String TABLES = "sp_tables";
    static final String INDEXES = "sp_indexes";
    /**
     * The ids of the tables this catalog deleted, each with its time: the orphan sweep drops only collections
     * of these ids [L2, O1], never a collection it can tell apart by name alone (another deployment's).
     */
    static final String DROPPED_TABLES = "sp_dropped_tables";
    static final String SCHEMA = "sp_schema";

    private CatalogDocuments() {
    }

    /** A table's documents, loaded together, and the record the machinery sees; MongoDB keeps no catalog stamp. */
    record Loaded(BsonDocument table, List<BsonDocument> indexes, TableRecord record) implements StorageTable {

        @Override
        public TableDescription description() {
            return record.description();
        }

        String baseCollection() {
            return table.getString("collection").getValue();
        }

        long revision() {
            return table.getInt64("rev").getValue();
        }

        /** The index documents with their collections, in ordinal order. */
        List<IndexEntry> indexEntries() {
            List<IndexEntry> out = new ArrayList<>();
            for (BsonDocument i : indexes) {
                out.add(new IndexEntry(i.getString("index_name").getValue(), i.getString("collection").getValue(),
                        keySchema(i)));
            }
            return out;
        }

        /** Every data collection, base first: the one list DeleteTable drops. */
        List<String> collections() {
            List<String> all = new ArrayList<>();
            all.add(baseCollection());
            indexes.forEach(i -> all.add(i.getString("collection").getValue()));
            return all;
        }
    }

    /** An index document's recorded count: 0 before the first recount sets it. */
    static long count(BsonDocument index, String field) {
        return index.containsKey(field) ? index.getInt64(field).getValue() : 0;
    }

    /** An index's entries collection and key. */
    record IndexEntry(String name, String collection, KeySchema keySchema) {
    }

    /** The {@code _id} of a table's document. */
    static String tableDocumentId(String accountId, String tableName) {
        return KeyIds.of(Key.of(new AttributeValue.S(accountId), new AttributeValue.S(tableName)));
    }

    static String indexDocumentId(String tableId, String indexName) {
        return tableId + "/" + indexName;
    }

    /** The documents of a new CREATING table; the index documents come from {@link #newIndex}. */
    static BsonDocument newTable(CreateTableRequest request, TableDescription d, Instant activateAt, int nextOrdinal) {
        return new BsonDocument("_id", new BsonString(tableDocumentId(request.accountId(), request.tableName())))
                .append("account_id", new BsonString(d.accountId()))
                .append("table_name", new BsonString(d.tableName()))
                .append("table_id", new BsonString(d.tableId()))
                .append("table_arn", new BsonString(d.tableArn()))
                .append("collection", new BsonString(DataCollections.base(d.tableId())))
                .append("status", new BsonString(TableStatus.CREATING.name()))
                .append("status_due_at", new BsonDateTime(activateAt.toEpochMilli()))
                .append("created_at", new BsonDateTime(d.creationTime().toEpochMilli()))
                .append("partition_key", new BsonString(d.keySchema().partitionKey()))
                .append("sort_key", text(d.keySchema().sortKey()))
                .append("attribute_definitions", new BsonString(CatalogJson.definitions(d.attributeDefinitions())))
                .append("stream", text(Optional.ofNullable(CatalogJson.stream(d.streamSpecification()))))
                .append("ttl", text(Optional.ofNullable(CatalogJson.ttl(d.timeToLive()))))
                .append("restore", BsonNull.VALUE)
                .append("item_count", new BsonInt64(0))
                .append("size_bytes", new BsonInt64(0))
                .append("next_index_ordinal", new BsonInt32(nextOrdinal))
                .append("rev", new BsonInt64(1));
    }

    static BsonDocument newIndex(String tableId, String name, boolean global, int ordinal, KeySchema key,
                                 Projection projection, IndexStatus status, boolean backfilling) {
        return new BsonDocument("_id", new BsonString(indexDocumentId(tableId, name)))
                .append("table_id", new BsonString(tableId))
                .append("index_name", new BsonString(name))
                .append("kind", new BsonString(global ? "GSI" : "LSI"))
                .append("ordinal", new BsonInt32(ordinal))
                .append("collection", new BsonString(DataCollections.index(tableId, global, ordinal)))
                .append("partition_key", new BsonString(key.partitionKey()))
                .append("sort_key", text(key.sortKey()))
                .append("projection", new BsonString(CatalogJson.projection(projection)))
                .append("status", new BsonString(status.name()))
                .append("backfilling", BsonBoolean.valueOf(backfilling));
    }

    static BsonDocument restore(RestoreSummary summary) {
        return new BsonDocument("source_backup_arn", text(summary.sourceBackupArn()))
                .append("source_table_arn", text(summary.sourceTableArn()))
                .append("restore_date_time", new BsonDateTime(summary.restoreDateTime().toEpochMilli()))
                .append("restore_in_progress", BsonBoolean.valueOf(summary.restoreInProgress()));
    }

    /** The table's record; an Internal error naming the document when it is damaged. */
    static Loaded load(BsonDocument table, List<BsonDocument> indexes) {
        try {
            return new Loaded(table, indexes, new TableRecord(describe(table, indexes), state(table)));
        } catch (RuntimeException e) {
            if (e instanceof StorageException s && s.reason() != dev.stillpoint.domain.error.ErrorReason.VALIDATION
                    && !CatalogDamage.isDamage(s)) {
                throw s;
            }
            BsonValue id = table.get("_id");
            throw StorageException.internal("the catalog document '" + (id != null && id.isString()
                    ? id.asString().getValue() : String.valueOf(id)) + "' of " + TABLES
                    + " cannot be read: " + e.getMessage(), e);
        }
    }

    static TableState state(BsonDocument table) {
        BsonValue dueValue = table.get("status_due_at");
        Instant due = dueValue == null || dueValue.isNull() ? Instant.EPOCH
                : Instant.ofEpochMilli(dueValue.asDateTime().getValue());
        boolean restoring = restoreSummary(table).map(RestoreSummary::restoreInProgress).orElse(false);
        return TableState.recorded(TableStatus.valueOf(table.getString("status").getValue()), due, restoring,
                TableState.DropRetry.SCHEDULED);
    }

    private static TableDescription describe(BsonDocument t, List<BsonDocument> indexes) {
        String table = t.containsKey("table_name") && t.get("table_name").isString() ? t.getString("table_name").getValue() : "?";
        return CatalogDamage.reading(table, () -> {
            try {
                List<GlobalSecondaryIndex> gsis = new ArrayList<>();
                List<LocalSecondaryIndex> lsis = new ArrayList<>();
                for (BsonDocument i : indexes) {
                    String name = i.getString("index_name").getValue();
                    Projection projection = CatalogJson.projection(i.getString("projection").getValue());
                    if (i.getString("kind").getValue().equals("GSI")) {
                        gsis.add(new GlobalSecondaryIndex(name, keySchema(i), projection,
                                IndexStatus.valueOf(i.getString("status").getValue()), i.getBoolean("backfilling").getValue(),
                                count(i, "item_count"), count(i, "size_bytes")));
                    } else {
                        lsis.add(new LocalSecondaryIndex(name, keySchema(i), projection, count(i, "item_count"),
                                count(i, "size_bytes")));
                    }
                }
                return new TableDescription(t.getString("account_id").getValue(), t.getString("table_name").getValue(),
                        t.getString("table_id").getValue(), t.getString("table_arn").getValue(),
                        TableStatus.valueOf(t.getString("status").getValue()),
                        Instant.ofEpochMilli(t.getDateTime("created_at").getValue()), keySchema(t),
                        CatalogJson.definitions(t.getString("attribute_definitions").getValue()), gsis, lsis, List.of(),
                        CatalogJson.stream(optionalText(t, "stream").orElse(null)),
                        CatalogJson.ttl(optionalText(t, "ttl").orElse(null)), restoreSummary(t),
                        Optional.empty(), t.getInt64("item_count").getValue(), t.getInt64("size_bytes").getValue());
            } catch (org.bson.BSONException e) {
                throw new IllegalStateException("a catalog document field has another BSON type than expected", e);
            }
        });
    }

    private static Optional<RestoreSummary> restoreSummary(BsonDocument t) {
        BsonValue r = t.get("restore");
        if (r == null || r.isNull()) {
            return Optional.empty();
        }
        BsonDocument d = r.asDocument();
        return Optional.of(new RestoreSummary(optionalText(d, "source_backup_arn"), optionalText(d, "source_table_arn"),
                Instant.ofEpochMilli(d.getDateTime("restore_date_time").getValue()),
                d.getBoolean("restore_in_progress").getValue()));
    }

    private static KeySchema keySchema(BsonDocument d) {
        return new KeySchema(d.getString("partition_key").getValue(), optionalText(d, "sort_key"));
    }

    private static Optional<String> optionalText(BsonDocument d, String field) {
        BsonValue v = d.get(field);
        return v == null || v.isNull() ? Optional.empty() : Optional.of(v.asString().getValue());
    }

    private static BsonValue text(Optional<String> value) {
        return value.<BsonValue>map(BsonString::new).orElse(BsonNull.VALUE);
    }
}
