package dev.stillpoint.adapters.postgres.engine;

import dev.stillpoint.adapters.postgres.storage.ChangeRelation;
import dev.stillpoint.adapters.postgres.storage.DataRelation;
import dev.stillpoint.adapters.postgres.storage.RelationLayout;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CatalogDamage;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.out.CatalogStamp;
import dev.stillpoint.ports.out.StorageTable;
import dev.stillpoint.sqlcatalog.CatalogRow;
import dev.stillpoint.sqlcatalog.DataRelationMaker;
import dev.stillpoint.sqlcatalog.IndexRow;
import dev.stillpoint.sqlcatalog.RelationName;
import dev.stillpoint.sqlcatalog.RowLock;
import dev.stillpoint.sqlcatalog.TableLoads;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.Query;

/**
 * The catalog rows of one table and how they map to the domain: the description, the lifecycle
 * state (status, due time, retry class), and the table's data relations. Every method runs on the
 * caller's connection and transaction, so a snapshot reads the catalog inside its own read window.
 */
final class CatalogRows {

    private CatalogRows() {
    }

    /** A table's rows and what they name, loaded together; a full load ({@link CatalogRow#full}) names every relation. */
    record Loaded(CatalogRow row) implements StorageTable {

        @Override
        public Optional<CatalogStamp> stamp() {
            return Optional.of(row.stamp());
        }

        @Override
        public TableDescription description() {
            return row.description();
        }

        RelationLayout base() {
            return RelationLayout.base(DataRelation.fromCatalog(row.relationName()), row.pkType(), row.skType());
        }

        RelationLayout index(IndexRow index) {
            return RelationLayout.index(DataRelation.fromCatalog(index.relationName()), index.pkType(), index.skType(),
                    row.pkType(), row.skType());
        }

        /**
         * Every data relation of the table: the base first, then each GSI and LSI relation by ordinal,
         * then each vector-index relation. The one list [P6]: the lock probe, the drop, the snapshot's
         * LOCK TABLE and the operator's holder query all take their relations from here. Last, the change
         * log relation [I1], whatever the setting (a log switched off keeps its empty relation until the table
         * goes): dropped with the table if it exists, locked by a snapshot where it exists.
         */
        List<DataRelation> relations() {
            if (!row.full()) {
                throw new IllegalStateException("the relations of a table need its full catalog load");
            }
            List<DataRelation> all = new ArrayList<>();
            all.add(stored(row.relationName()));
            row.indexes().forEach(i -> all.add(stored(i.relationName())));
            row.vectorRelations().forEach(v -> all.add(stored(v)));
            all.add(changeRelation().relation());
            return all;
        }

        /**
         * A relation the row names; a name this catalog could not have written (edited to name another
         * application's table, say) is catalog damage naming the table and the name [R6, L2], never a drop.
         */
        private DataRelation stored(String relationName) {
            return CatalogDamage.reading(description().tableName(), () -> {
                try {
                    return DataRelation.fromCatalog(relationName);
                } catch (IllegalArgumentException e) {
                    throw CatalogDamage.field("relation name", relationName, StorageException.internal(e.getMessage(), e));
                }
            });
        }

        /** The change log relation [I1], when the description says the table keeps a log. */
        Optional<ChangeRelation> changes() {
            if (!description().changeLog().enabled()) {
                return Optional.empty();
            }
            return Optional.of(changeRelation());
        }

        /** The table's change log relation [I1], whether or not it exists. */
        ChangeRelation changeRelation() {
            return ChangeRelation.of(row.tableId(), row.pkType(), row.skType());
        }
    }

    /** The row, its indexes, vector indexes and restore record: everything a description or a drop needs. */
    static Optional<Loaded> load(DSLContext ctx, String accountId, String tableName, RowLock lock) {
        return TableLoads.load(ctx, accountId, tableName, lock).map(Loaded::new);
    }

    /** The row and its GSI/LSI rows only: what an item read or write needs (two round trips, not four). */
    static Optional<Loaded> loadForItems(DSLContext ctx, String accountId, String tableName, RowLock lock) {
        return TableLoads.loadForItems(ctx, accountId, tableName, lock).map(Loaded::new);
    }

    /**
     * Makes each relation on {@code data}, typed by its key, and registers it as this deployment's [L2]. A change
     * log is made in the data transaction that creates the base relation: its START row's xid is that
     * transaction's, which every snapshot of the ACTIVE table sees [I4].
     */
    static DataRelationMaker relations(DSLContext data) {
        return new DataRelationMaker() {
            @Override
            public void createBase(RelationName name, ScalarType pk, Optional<ScalarType> sk) {
                RelationLayout.base(DataRelation.of(name), pk, sk).createAll(data).forEach(Query::execute);
                DataRelations.register(data, name.name());
            }

            @Override
            public void createIndex(IndexRow index, ScalarType tablePk, Optional<ScalarType> tableSk) {
                RelationLayout.index(DataRelation.fromCatalog(index.relationName()), index.pkType(), index.skType(),
                        tablePk, tableSk).createAll(data).forEach(Query::execute);
                DataRelations.register(data, index.relationName());
            }

            @Override
            public void createChangeLog(String tableId, ScalarType pk, Optional<ScalarType> sk) {
                ChangeRelation changes = ChangeRelation.of(tableId, pk, sk);
                changes.create().forEach(data::execute);
                DataRelations.register(data, changes.relation().name());
            }
        };
    }
}
