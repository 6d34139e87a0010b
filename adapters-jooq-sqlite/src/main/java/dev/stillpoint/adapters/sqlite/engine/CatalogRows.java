package dev.stillpoint.adapters.sqlite.engine;

import dev.stillpoint.adapters.sqlite.storage.ChangeRelation;
import dev.stillpoint.adapters.sqlite.storage.DataRelation;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.out.CatalogStamp;
import dev.stillpoint.ports.out.StorageTable;
import dev.stillpoint.sqlcatalog.CatalogRow;
import dev.stillpoint.sqlcatalog.DataRelationMaker;
import dev.stillpoint.sqlcatalog.IndexRow;
import dev.stillpoint.sqlcatalog.NamedRelation;
import dev.stillpoint.sqlcatalog.RelationName;
import dev.stillpoint.sqlcatalog.RowLock;
import dev.stillpoint.sqlcatalog.TableLoads;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.Query;

/**
 * The catalog rows of one table and how they map to the domain: the description and the
 * lifecycle state (status, due time and retry class). Every method runs on the caller's
 * connection and transaction, so a snapshot reads the catalog inside its own read window.
 */
final class CatalogRows {

    private CatalogRows() {
    }

    /** A table's rows and what they name, loaded together: what the core's write sequence keeps per table. */
    record Loaded(CatalogRow row) implements StorageTable {

        @Override
        public TableDescription description() {
            return row.description();
        }

        @Override
        public Optional<CatalogStamp> stamp() {
            return Optional.of(row.stamp());
        }

        DataRelation base() {
            return DataRelation.fromCatalog(row.relationName());
        }

        /**
         * Every relation of the table, base first, then its indexes, then its change log relation [I1]:
         * the one list for probe and drop. The change relation is listed whatever the description says
         * (dropped if it exists), so a catalog whose setting was edited never leaves a log behind.
         */
        List<NamedRelation> relations() {
            List<NamedRelation> all = new ArrayList<>();
            all.add(base());
            row.indexes().forEach(i -> all.add(DataRelation.fromCatalog(i.relationName())));
            all.add(changes());
            return all;
        }

        /** The table's change log relation [I1]; it exists only when the table keeps a log. */
        ChangeRelation changes() {
            return ChangeRelation.ofTableId(row.tableId());
        }
    }

    static Optional<Loaded> load(DSLContext ctx, String accountId, String tableName) {
        return TableLoads.load(ctx, accountId, tableName, RowLock.NONE).map(Loaded::new);
    }

    /** Makes the relations on the one write transaction; SQLite's key columns are BLOBs, whatever the key's types. */
    static DataRelationMaker relations(DSLContext ctx) {
        return new DataRelationMaker() {
            @Override
            public void createBase(RelationName name, ScalarType pk, Optional<ScalarType> sk) {
                DataRelation.of(name).createAll(ctx).forEach(Query::execute);
            }

            @Override
            public void createIndex(IndexRow index, ScalarType tablePk, Optional<ScalarType> tableSk) {
                DataRelation.fromCatalog(index.relationName()).createAll(ctx).forEach(Query::execute);
            }

            @Override
            public void createChangeLog(String tableId, ScalarType pk, Optional<ScalarType> sk) {
                SqliteChangeLog.start(ctx, ChangeRelation.ofTableId(tableId));
            }
        };
    }
}
