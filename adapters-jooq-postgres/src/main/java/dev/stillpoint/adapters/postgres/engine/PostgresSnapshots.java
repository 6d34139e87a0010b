package dev.stillpoint.adapters.postgres.engine;

import static dev.stillpoint.adapters.postgres.generated.Tables.SP_TABLES;

import dev.stillpoint.adapters.postgres.storage.DataRelation;
import dev.stillpoint.adapters.postgres.storage.RelationLayout;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.KeyOrder;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.in.SnapshotInfo;
import dev.stillpoint.ports.in.StoredKeys;
import dev.stillpoint.ports.out.BegunRead;
import dev.stillpoint.ports.out.DefinedRead;
import dev.stillpoint.ports.out.PageSource;
import dev.stillpoint.ports.out.PinnedRead;
import dev.stillpoint.ports.out.ReadObserver;
import dev.stillpoint.ports.out.SegmentSources;
import dev.stillpoint.ports.out.SnapshotReadPort;
import dev.stillpoint.sqlcatalog.RowLock;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jooq.Field;
import org.jooq.Query;
import org.jooq.SQLDialect;
import org.jooq.SelectJoinStep;
import org.jooq.conf.ParamType;
import org.jooq.impl.DSL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Snapshots on PostgreSQL [P1-P5, S1-S7], as the steps of {@link SnapshotReadPort}, each a record
 * holding the connections it owns; read from {@link #begin} down to {@link CursorPages}.
 *
 * <p>Shared layout: one pooled connection, one REPEATABLE READ READ ONLY transaction whose first
 * statement reads the catalog row (so the definition and the items are one MVCC snapshot, with no
 * row lock), then {@code LOCK TABLE ... IN ACCESS SHARE MODE} on every relation of the table; a
 * DeleteTable that dropped them in between makes the LOCK fail with 42P01, which is TableNotFound.
 *
 * <p>Separate layout: a catalog connection reads the row FOR SHARE (so UpdateTable and DeleteTable,
 * which take it FOR UPDATE, wait), and keeps it until the data connection's REPEATABLE READ READ
 * ONLY transaction holds ACCESS SHARE on the relations and has pinned its snapshot; only then is
 * the catalog transaction ended and its connection returned.
 *
 * <p>Both: the marker is the table's id and {@code pg_current_snapshot()}; the relations that exist are probed with the
 * definition, and a GSI whose relation is missing is left out of the description [D9] (a missing
 * base relation is TableNotFound at the pin, or damage, INTERNAL, while a fresh read finds the row ACTIVE);
 * items come through the query's portal ({@link CursorPages}: pgjdbc's fetch size, one batch of rows a round
 * trip), ordered by the primary key (text key columns are {@code COLLATE "C"}); a relation whose text key
 * columns have another collation streams unordered with a warning, never sorted whole.
 * SQLSTATE 40001 and 72000 are SnapshotExpired.
 */
public final class PostgresSnapshots implements SnapshotReadPort {

    private static final Logger LOG = LoggerFactory.getLogger(PostgresSnapshots.class);

    /** The marker's kind in {@link SnapshotInfo}. */
    public static final String KIND = "postgresql-snapshot";

    private static final String EXISTING_RELATIONS =
            "SELECT r FROM unnest(?::text[]) AS r WHERE to_regclass(quote_ident(r)) IS NOT NULL";

    private static final String KEY_COLLATIONS = """
            SELECT a.attname, coalesce(coll.collname, '')
              FROM pg_attribute a LEFT JOIN pg_collation coll ON coll.oid = a.attcollation
             WHERE a.attrelid = to_regclass(quote_ident(?)) AND a.attnum > 0 AND NOT a.attisdropped
               AND a.attcollation <> 0 AND a.attname IN ('pk', 'sk')""";

    private final Pools pools;
    private final Runnable definitionRead;

    /**
     * Snapshots over {@code pools}.
     *
     * @param pools the engine's pools
     */
    public PostgresSnapshots(Pools pools) {
        this(pools, () -> { });
    }

    /**
     * Snapshots over {@code pools} that run {@code definitionRead} once an open has read its definition,
     * before it reads anything else: a test's pause, where a write committed must be in neither the
     * definition nor the items [S1]; never a production setting.
     *
     * @param pools          the engine's pools
     * @param definitionRead run on the opening thread; may block
     */
    public PostgresSnapshots(Pools pools, Runnable definitionRead) {
        this.pools = pools;
        this.definitionRead = definitionRead;
    }

    /** Shared: the data connection's snapshot transaction. Separate: the catalog connection's transaction. */
    @Override
    public BegunRead begin(String accountId, String tableName, ReadObserver observer) {
        String doing = "opening a snapshot of '" + tableName + "'";
        Connection first;
        try {
            first = pools.shared() ? pools.data() : pools.catalog();
        } catch (SQLException e) {
            throw PgFailures.map(doing, e);
        }
        try {
            if (pools.shared()) {
                TransactionStatements.beginSnapshot(first);
            } else {
                TransactionStatements.begin(first);
            }
            return new Begun(pools, accountId, tableName, observer, first, definitionRead);
        } catch (SQLException | RuntimeException e) {
            TransactionStatements.release(first);
            throw PgFailures.mapSnapshot(doing, e);
        }
    }

    /** Begun: {@code catalog} is in its transaction (on the shared layout it is the data connection too). */
    private record Begun(Pools pools, String accountId, String tableName, ReadObserver observer, Connection catalog,
                         Runnable definitionRead) implements BegunRead {

        /**
         * Reads the row (shared: the transaction's first statement, which takes its snapshot [P1];
         * separate: FOR SHARE until the data transaction is pinned [P2]), then, on the data connection
         * (borrowed now on the separate layout, always after the catalog's), which relations exist.
         */
        @Override
        public DefinedRead readDefinition() {
            try {
                // A read-only opening takes no row lock (a row lock is a write) and checks the row once pinned instead.
                boolean rowUnlocked = !pools.shared() && pools.readOnly();
                RowLock lock = pools.shared() || rowUnlocked ? RowLock.NONE
                        : RowLock.SHARE;
                CatalogRows.Loaded loaded = CatalogRows.load(Transaction.dsl(catalog), accountId, tableName, lock)
                        .orElseThrow(() -> StorageException.tableNotFound(tableName));
                definitionRead.run();
                Connection data = pools.shared() ? catalog : pools.data();
                try {
                    List<DataRelation> existing = existingRelations(data, loaded.relations());
                    return new Defined(pools, tableName, observer, catalog, data, loaded, existing,
                            withoutGsisMissingRelations(loaded, existing), rowUnlocked);
                } catch (SQLException | RuntimeException e) {
                    if (data != catalog) {
                        TransactionStatements.release(data);
                    }
                    throw e;
                }
            } catch (SQLException | RuntimeException e) {
                throw failed(tableName, "reading the definition", e);
            }
        }

        @Override
        public void close() {
            TransactionStatements.release(catalog);
        }
    }

    /** Defined: the row is read (held FOR SHARE on the separate layout), the existing relations known. */
    private record Defined(Pools pools, String tableName, ReadObserver observer, Connection catalog, Connection data,
                           CatalogRows.Loaded loaded, List<DataRelation> existing, TableDescription description,
                           boolean rowUnlocked) implements DefinedRead {

        @Override
        public PinnedRead pin() {
            try {
                if (!existing.contains(loaded.relations().get(0))) {
                    throw missingBase();
                }
                if (separate()) {
                    TransactionStatements.beginSnapshot(data);
                }
                // ACCESS SHARE on every relation of the table: a DROP now waits for this stream, and
                // DeleteTable's probe sees it. Not the snapshot-taking statement: LOCK takes no snapshot.
                List<org.jooq.Table<?>> tables = new ArrayList<>();
                existing.forEach(r -> tables.add(r.table()));
                Query lock = DSL.query("lock table {0} in access share mode", DSL.list(tables));
                TransactionStatements.exec(data, Transaction.dsl(data).renderInlined(lock));
                String marker;
                try (Statement s = data.createStatement();
                     ResultSet rs = s.executeQuery("SELECT pg_current_snapshot()::text")) {
                    rs.next();
                    marker = rs.getString(1);
                }
                boolean keyOrdered = orderable(data, loaded, tableName);
                if (rowUnlocked) {
                    requireRowUnchanged();
                }
                if (separate()) {
                    // Pinned and probed: now UpdateTable and DeleteTable may take the row [P2]. The last
                    // statement of the step, so a failure above leaves the catalog to this step's close.
                    TransactionStatements.release(catalog);
                }
                // The table's id before the snapshot's text [L5]: a change log window starts only at a marker of
                // this table (a table deleted and created again, or another database's, has another id) [I4].
                return new Pinned(pools, tableName, observer, data, loaded, new SnapshotInfo(KIND, marker(loaded, marker)),
                        keyOrdered);
            } catch (SQLException | RuntimeException e) {
                throw failed(tableName, "pinning the snapshot", e);
            }
        }

        private boolean separate() {
            return data != catalog;
        }

        /**
         * The base relation is missing: TableNotFound when a DeleteTable dropped it after this snapshot read the
         * row (the shared layout reads the row in its MVCC snapshot, which keeps a row deleted since), else the
         * damage {@link MissingRelation} names.
         */
        private StorageException missingBase() {
            String tableId = loaded.row().tableId();
            return MissingRelation.rowsStillActive(pools, Set.of(tableId))
                    ? MissingRelation.damaged(pools, Set.of(tableId), "table '" + tableName + "': its relation "
                            + loaded.relations().get(0).name() + " does not exist", List.of(tableName), null)
                    : StorageException.tableNotFound(tableName);
        }

        /**
         * The read-only separate layout's stand-in for the row lock [P2]: the row's catalog version, read
         * again by table id after the pin (a new statement of the catalog's READ COMMITTED transaction), must
         * be the one loaded, or an UpdateTable or DeleteTable committed in between.
         */
        private void requireRowUnchanged() {
            // catalog_version changes with every change of the definition, not with item counts; a
            // table deleted and created again has another table id, so its row is not found.
            Long now = Transaction.dsl(catalog).select(SP_TABLES.CATALOG_VERSION).from(SP_TABLES)
                    .where(SP_TABLES.TABLE_ID.eq(loaded.row().tableId()))
                    .fetchOne(SP_TABLES.CATALOG_VERSION);
            if (now == null || !now.equals(loaded.row().catalogVersion())) {
                throw new StorageException(ErrorReason.TRANSIENT, "table '" + tableName + "' changed while its"
                        + " snapshot opened; open it again");
            }
        }

        @Override
        public void close() {
            if (separate()) {
                TransactionStatements.release(data);
            }
            TransactionStatements.release(catalog);
        }
    }

    /**
     * The marker of a snapshot of {@code loaded}'s table [L5, P3]: {@code <table id>@<pg_current_snapshot()>}.
     * Markers made before the change log carried the snapshot's text alone; a change log read refuses them
     * by name, as they name no table [I4].
     */
    static String marker(CatalogRows.Loaded loaded, String snapshot) {
        return loaded.row().tableId() + "@" + snapshot;
    }

    /** Pinned: the data transaction holds its snapshot and ACCESS SHARE on every relation; the row is free. */
    record Pinned(Pools pools, String tableName, ReadObserver observer, Connection data, CatalogRows.Loaded loaded,
                  SnapshotInfo info, boolean keyOrdered) implements PinnedRead {

        /** The item column; with {@code INCLUDED}, the key columns after it, so each item carries its stored key [E1]. */
        @Override
        public PageSource pages(StoredKeys storedKeys) {
            RelationLayout base = loaded.base();
            List<Field<?>> columns = new ArrayList<>();
            columns.add(base.item());
            if (storedKeys == StoredKeys.INCLUDED) {
                columns.addAll(base.keyColumns());
            }
            SelectJoinStep<?> select = DSL.using(SQLDialect.POSTGRES).select(columns).from(base.relation().table());
            String query = (keyOrdered ? select.orderBy(base.keyColumns().toArray(new Field<?>[0])) : select)
                    .getSQL(ParamType.INLINED);
            return new CursorPages(pools::closedOr, data, query, keyTypes(storedKeys), tableName, observer);
        }

        /** The types of the key columns a page query selects after the item: none unless {@code INCLUDED}. */
        private List<ScalarType> keyTypes(StoredKeys storedKeys) {
            return storedKeys == StoredKeys.INCLUDED ? loaded.base().keyTypes() : List.of();
        }

        /**
         * One segment on this connection, the others on connections sharing its exported snapshot [B2]
         * ({@link SnapshotSegments}); a relation that streams unordered has no key ranges to cut.
         */
        @Override
        public SegmentSources segments(int count, StoredKeys storedKeys) {
            if (count == 1) {
                return new SegmentSources(List.of(pages(storedKeys)), SegmentSources.NOTHING_SHARED);
            }
            if (!keyOrdered) {
                throw StorageException.unsupported("PostgreSQL", "table '" + tableName + "' streams in no key"
                        + " order (an unorderable key or a key column not collated \"C\"), so it has no key ranges"
                        + " to cut into " + count + " segments [B2]");
            }
            return SnapshotSegments.cut(pools, data, loaded.base(), keyTypes(storedKeys), tableName, observer, count);
        }

        @Override
        public void close() {
            TransactionStatements.release(data);
        }
    }

    /** Whether the items can come in KeyOrder: a resolvable key and bytewise-collated text key columns [P4]. */
    private static boolean orderable(Connection data, CatalogRows.Loaded loaded, String tableName) throws SQLException {
        TableDescription d = loaded.description();
        if (KeyOrder.resolve(d.keySchema(), d.attributeDefinitions()).ordered().isEmpty()) {
            return false;
        }
        String relation = loaded.base().relation().name();
        try (PreparedStatement ps = data.prepareStatement(KEY_COLLATIONS)) {
            ps.setString(1, relation);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String collation = rs.getString(2);
                    if (!collation.equals("C") && !collation.equals("POSIX")) {
                        LOG.warn("table '{}' ({}): key column {} has collation '{}', not \"C\"; its snapshot streams "
                                + "unordered (ordering it would sort the whole table before the first item)",
                                tableName, relation, rs.getString(1), collation);
                        return false;
                    }
                }
            }
        }
        return true;
    }

    /** The relations among {@code relations} that exist now, in the same order. */
    private static List<DataRelation> existingRelations(Connection c, List<DataRelation> relations) throws SQLException {
        Set<String> found = new HashSet<>();
        try (PreparedStatement ps = c.prepareStatement(EXISTING_RELATIONS)) {
            Array names = c.createArrayOf("text", relations.stream().map(DataRelation::name).toArray());
            ps.setArray(1, names);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    found.add(rs.getString(1));
                }
            }
        }
        return relations.stream().filter(r -> found.contains(r.name())).toList();
    }

    /** D9: a GSI whose data relation is missing is left out, with the definitions only it used. */
    private static TableDescription withoutGsisMissingRelations(CatalogRows.Loaded loaded, List<DataRelation> existing) {
        Set<String> names = new HashSet<>();
        existing.forEach(r -> names.add(r.name()));
        Set<String> gsisWithRelation = new HashSet<>();
        loaded.row().indexes().stream()
                .filter(i -> i.global() && names.contains(i.relationName()))
                .forEach(i -> gsisWithRelation.add(i.name()));
        return loaded.description().withoutGsisMissingRelations(gsisWithRelation);
    }

    private static StorageException failed(String tableName, String stage, Throwable e) {
        if (PgFailures.sqlState(e).equals("42P01")) {
            return new StorageException(ErrorReason.TABLE_NOT_FOUND, "Table not found: " + tableName
                    + " (its relations were dropped while the snapshot was opening: " + PgFailures.describe(e) + ")", e);
        }
        return PgFailures.mapSnapshot(stage + " of a snapshot of '" + tableName + "'", e);
    }
}
