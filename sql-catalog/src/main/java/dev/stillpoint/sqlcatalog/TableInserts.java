package dev.stillpoint.sqlcatalog;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.IndexStatus;
import dev.stillpoint.domain.table.LocalSecondaryIndex;
import dev.stillpoint.domain.table.RestoreSummary;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.itemjson.CatalogJson;
import java.time.Instant;
import java.util.Optional;
import org.jooq.DSLContext;

/**
 * A new table's catalog rows and the data relations they name, the same on both SQL catalogs: the table id
 * the caller chose (PostgreSQL records it before the data relations exist, {@code sp_pending_creations}), the
 * CREATING row, its GSI and LSI rows by ordinal (GSIs first), each relation made by the
 * adapter's {@link DataRelationMaker}. Runs on the caller's transaction.
 */
public final class TableInserts {

    private TableInserts() {
    }

    /**
     * CreateTable's rows: refused RESOURCE_IN_USE when the account has a table of the name, else as
     * {@link #insertCreating}. The caller's transaction holds what it read until the insert commits.
     *
     * @return the new table's description
     */
    public static TableDescription create(DSLContext catalog, TableId id, CreateTableRequest request, Instant now,
                                          Instant activateAt, DataRelationMaker data) {
        requireNameFree(catalog, request, "table '" + request.tableName() + "' already exists");
        return insertCreating(catalog, id, request, now, activateAt, data);
    }

    /**
     * A restore's rows [E4]: refused RESOURCE_IN_USE when the account has a table of the name, else the
     * CREATING row due at {@code aliveUntil} (its stamp), its relations and its restore record in progress.
     *
     * @return the new table's description as read back, carrying the restore's summary
     */
    public static TableDescription restore(DSLContext catalog, TableId id, CreateTableRequest request,
                                           RestoreSummary summary, Instant now, Instant aliveUntil,
                                           DataRelationMaker data) {
        requireNameFree(catalog, request, "cannot restore into table '" + request.tableName()
                + "': a table of this name exists");
        String tableId = insertCreating(catalog, id, request, now, aliveUntil, data).tableId();
        RestoreRecords.insert(catalog, tableId, summary);
        return TableLoads.load(catalog, request.accountId(), request.tableName(), RowLock.NONE).orElseThrow()
                .description();
    }

    /**
     * Inserts the CREATING row of the table {@code request} makes, id {@code id}, due at {@code activateAt}, and its
     * index rows; {@code data} makes every relation they name (and the change log the request asks for).
     *
     * @return the new table's description
     */
    public static TableDescription insertCreating(DSLContext catalog, TableId id, CreateTableRequest request,
                                                  Instant now, Instant activateAt, DataRelationMaker data) {
        RelationName base = RelationName.base(id.value());
        TableDescription description = request.describe(id.value(), request.tableArn(), now);
        ScalarType pk = typeOf(description, request.keySchema().partitionKey());
        Optional<ScalarType> sk = request.keySchema().sortKey().map(s -> typeOf(description, s));
        TableRows.insertCreating(catalog, request, description, base.name(), activateAt, pk.name(),
                sk.map(Enum::name).orElse(null));
        data.createBase(base, pk, sk);
        if (request.changeLog().enabled()) {
            data.createChangeLog(id.value(), pk, sk);
        }
        int ordinal = 0;
        for (GlobalSecondaryIndex g : request.gsis()) {
            // Built with the table: it is empty, so there is nothing to backfill.
            insertIndex(catalog, description, true, ordinal++, g.name(), g.keySchema(),
                    CatalogJson.projection(g.projection()), IndexStatus.ACTIVE, false, data);
        }
        for (LocalSecondaryIndex l : request.lsis()) {
            insertIndex(catalog, description, false, ordinal++, l.name(), l.keySchema(),
                    CatalogJson.projection(l.projection()), IndexStatus.ACTIVE, false, data);
        }
        return description;
    }

    /** Refuses RESOURCE_IN_USE, saying {@code taken}, when the request's account has a table of its name. */
    private static void requireNameFree(DSLContext catalog, CreateTableRequest request, String taken) {
        if (TableLoads.load(catalog, request.accountId(), request.tableName(), RowLock.NONE).isPresent()) {
            throw StorageException.resourceInUse(taken);
        }
    }

    /**
     * UpdateTable's record of a GSI being added [D9]: {@code after}'s attribute definitions on the table's row,
     * and the index's row CREATING and backfilling at {@code ordinal}, its relation made by {@code data}.
     *
     * @return the index's row, naming its relation and key types
     */
    public static IndexRow recordGlobalIndex(DSLContext catalog, TableDescription after, String indexName, int ordinal,
                                             DataRelationMaker data) {
        GlobalSecondaryIndex gsi = after.gsi(indexName).orElseThrow();
        TableRows.setDefinitions(catalog, after);
        return insertIndex(catalog, after, true, ordinal, gsi.name(), gsi.keySchema(),
                CatalogJson.projection(gsi.projection()), IndexStatus.CREATING, true, data);
    }

    /**
     * Inserts one index row of {@code table} (a GSI when {@code global}, else an LSI) at {@code ordinal},
     * and has {@code data} make its relation.
     *
     * @return the row inserted, naming the relation and its key types
     */
    public static IndexRow insertIndex(DSLContext catalog, TableDescription table, boolean global, int ordinal,
                                       String name, KeySchema key, String projectionJson, IndexStatus status,
                                       boolean backfilling, DataRelationMaker data) {
        RelationName relation = RelationName.index(table.tableId(),
                global ? RelationName.Kind.GSI : RelationName.Kind.LSI, ordinal);
        IndexRow row = new IndexRow(ordinal, name, global, relation.name(), typeOf(table, key.partitionKey()),
                key.sortKey().map(s -> typeOf(table, s)));
        TableRows.insertIndex(catalog, table.tableId(), global ? "GSI" : "LSI", ordinal, name, key, relation.name(),
                row.pkType().name(), row.skType().map(Enum::name).orElse(null), projectionJson, status, backfilling);
        KeySchema tableKey = table.keySchema();
        data.createIndex(row, typeOf(table, tableKey.partitionKey()), tableKey.sortKey().map(s -> typeOf(table, s)));
        return row;
    }

    private static ScalarType typeOf(TableDescription d, String attribute) {
        return d.definition(attribute).map(a -> a.type())
                .orElseThrow(() -> StorageException.validation("key attribute '" + attribute + "' has no attribute definition"));
    }
}
