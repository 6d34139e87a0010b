package dev.stillpoint.adapters.sqlite.engine;

import static dev.stillpoint.adapters.sqlite.generated.Tables.SP_INDEXES;
import static dev.stillpoint.adapters.sqlite.generated.Tables.SP_TABLES;
import static dev.stillpoint.adapters.sqlite.generated.Tables.SP_VECTOR_INDEXES;

import dev.stillpoint.adapters.sqlite.generated.tables.records.SpIndexesRecord;
import dev.stillpoint.adapters.sqlite.generated.tables.records.SpTablesRecord;
import dev.stillpoint.adapters.sqlite.storage.ChangeRelation;
import dev.stillpoint.adapters.sqlite.storage.DataRelation;
import dev.stillpoint.sqlcatalog.NamedRelation;
import dev.stillpoint.sqlcatalog.TableId;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.IndexStatus;
import dev.stillpoint.domain.table.LocalSecondaryIndex;
import dev.stillpoint.domain.table.RestoreSummary;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.VectorIndex;
import dev.stillpoint.itemjson.CatalogJson;
import dev.stillpoint.ports.out.TableRecord;
import dev.stillpoint.sqlcatalog.TableDescriptions;
import dev.stillpoint.sqlcatalog.TableLoads;
import dev.stillpoint.sqlcatalog.TableRows;
import java.time.Instant;
import dev.stillpoint.ports.out.CatalogStamp;
import dev.stillpoint.ports.out.StorageTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jooq.DSLContext;

/**
 * The catalog rows of one table and how they map to the domain: the description and the
 * lifecycle state (status, due time and retry class). Every method runs on the caller's
 * connection and transaction, so a snapshot reads the catalog inside its own read window.
 */
final class CatalogRows {


    private CatalogRows() {
    }

    /** A table's row and what it names, loaded together: what the core's write sequence keeps per table. */
    record Loaded(SpTablesRecord row, List<SpIndexesRecord> indexes, TableRecord record) implements StorageTable {

        @Override
        public TableDescription description() {
            return record.description();
        }

        @Override
        public Optional<CatalogStamp> stamp() {
            return Optional.of(new CatalogStamp(row.getTableId(), row.getCatalogVersion()));
        }

        DataRelation base() {
            return DataRelation.fromCatalog(row.getRelationName());
        }

        /**
         * Every relation of the table, base first, then its indexes, then its change log relation [I1]:
         * the one list for probe and drop. The change relation is listed whatever the description says
         * (dropped if it exists), so a catalog whose setting was edited never leaves a log behind.
         */
        List<NamedRelation> relations() {
            List<NamedRelation> all = new ArrayList<>();
            all.add(base());
            indexes.forEach(i -> all.add(DataRelation.fromCatalog(i.getRelationName())));
            all.add(changes());
            return all;
        }

        /** The table's change log relation [I1]; it exists only when the table keeps a log. */
        ChangeRelation changes() {
            return ChangeRelation.ofTableId(row.getTableId());
        }
    }

    static Optional<Loaded> load(DSLContext ctx, String accountId, String tableName) {
        SpTablesRecord row = ctx.selectFrom(SP_TABLES)
                .where(SP_TABLES.ACCOUNT_ID.eq(accountId).and(SP_TABLES.TABLE_NAME.eq(tableName)))
                .fetchOne();
        if (row == null) {
            return Optional.empty();
        }
        List<SpIndexesRecord> indexes = TableLoads.indexes(ctx, SP_INDEXES, row.getTableId());
        List<VectorIndex> vectors = TableLoads.vectorIndexes(ctx, SP_VECTOR_INDEXES, row.getTableId()).stream()
                .map(TableDescriptions::vectorIndex).toList();
        Optional<RestoreSummary> restore = TableLoads.restore(ctx, row.getTableId());
        TableDescription description = TableDescriptions.of(row, indexes, vectors, restore);
        boolean restoring = restore.map(RestoreSummary::restoreInProgress).orElse(false);
        return Optional.of(new Loaded(row, indexes, new TableRecord(description, TableDescriptions.state(row, restoring))));
    }

    /** Inserts a CREATING row and its index rows, and creates every data relation. */
    static TableDescription insertCreating(DSLContext ctx, CreateTableRequest request, Instant now, Instant activateAt) {
        TableId id = TableId.random();
        DataRelation base = DataRelation.base(id);
        TableDescription description = request.describe(id.value(), TableRows.arn(request), now);
        TableRows.insertCreating(ctx, request, description, base.name(), activateAt,
                typeOf(description, request.keySchema().partitionKey()),
                request.keySchema().sortKey().map(s -> typeOf(description, s)).orElse(null));
        base.createAll(ctx).forEach(q -> q.execute());
        if (request.changeLog().enabled()) {
            SqliteChangeLog.start(ctx, ChangeRelation.of(id));
        }
        int ordinal = 0;
        for (GlobalSecondaryIndex g : request.gsis()) {
            // Built with the table: it is empty, so there is nothing to backfill.
            insertIndex(ctx, id, "GSI", ordinal++, g.name(), g.keySchema(), CatalogJson.projection(g.projection()),
                    IndexStatus.ACTIVE, false, description);
        }
        for (LocalSecondaryIndex l : request.lsis()) {
            insertIndex(ctx, id, "LSI", ordinal++, l.name(), l.keySchema(), CatalogJson.projection(l.projection()),
                    IndexStatus.ACTIVE, false, description);
        }
        return description;
    }

    static DataRelation insertIndex(DSLContext ctx, TableId id, String kind, int ordinal, String name, KeySchema key,
                                    String projectionJson, IndexStatus status, boolean backfilling,
                                    TableDescription description) {
        DataRelation relation = kind.equals("GSI") ? DataRelation.globalIndex(id, ordinal) : DataRelation.localIndex(id, ordinal);
        TableRows.insertIndex(ctx, id.value(), kind, ordinal, name, key, relation.name(),
                typeOf(description, key.partitionKey()), key.sortKey().map(s -> typeOf(description, s)).orElse(null),
                projectionJson, status, backfilling);
        relation.createAll(ctx).forEach(q -> q.execute());
        return relation;
    }

    private static String typeOf(TableDescription d, String attribute) {
        return d.definition(attribute).map(a -> a.type().name()).orElse(null);
    }
}
