package dev.stillpoint.adapters.postgres.engine;

import static dev.stillpoint.adapters.postgres.generated.Tables.SP_TABLES;

import dev.stillpoint.adapters.postgres.storage.DataRelation;
import dev.stillpoint.adapters.postgres.storage.RelationLayout;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.key.KeyOrder;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.in.SnapshotInfo;
import dev.stillpoint.ports.in.StoredItem;
import dev.stillpoint.ports.out.Page;
import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.ports.out.PageSource;
import dev.stillpoint.ports.out.ReadObserver;
import dev.stillpoint.ports.out.ReadWindow;
import dev.stillpoint.ports.out.SnapshotReadPort;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jooq.Field;
import org.jooq.Query;
import org.jooq.SQLDialect;
import org.jooq.SelectJoinStep;
import org.jooq.Record1;
import org.jooq.conf.ParamType;
import org.jooq.impl.DSL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Snapshots on PostgreSQL [P1-P5, S1-S7].
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
 * <p>Both: the marker is {@code pg_current_snapshot()}; a GSI whose relation is missing is left out
 * of the description [D9]; items come through a server-side cursor, one FETCH per round trip,
 * ordered by the primary key (text key columns are {@code COLLATE "C"}); a relation whose text key
 * columns have another collation streams unordered with a warning, never sorted whole. SQLSTATE
 * 40001 and 72000 are SnapshotExpired.
 */
public final class PostgresSnapshots implements SnapshotReadPort {

    private static final Logger LOG = LoggerFactory.getLogger(PostgresSnapshots.class);

    /** The marker's kind in {@link SnapshotInfo}. */
    public static final String KIND = "postgresql-snapshot";

    /** Rows of the first FETCH, before the items' size is known (16 of the largest items are 6.5 MB). */
    static final int FIRST_FETCH_ROWS = 16;

    private static final String CURSOR = "sp_snapshot";

    private static final String EXISTING_RELATIONS =
            "SELECT r FROM unnest(?::text[]) AS r WHERE to_regclass(quote_ident(r)) IS NOT NULL";

    private static final String KEY_COLLATIONS = """
            SELECT a.attname, coalesce(coll.collname, '')
              FROM pg_attribute a LEFT JOIN pg_collation coll ON coll.oid = a.attcollation
             WHERE a.attrelid = to_regclass(quote_ident(?)) AND a.attnum > 0 AND NOT a.attisdropped
               AND a.attcollation <> 0 AND a.attname IN ('pk', 'sk')""";

    private final Pools pools;

    public PostgresSnapshots(Pools pools) {
        this.pools = pools;
    }

    @Override
    public ReadWindow begin(String accountId, String tableName, ReadObserver observer) {
        String doing = "opening a snapshot of '" + tableName + "'";
        Connection first;
        try {
            first = pools.shared() ? pools.data() : pools.catalog();
        } catch (SQLException e) {
            throw PgFailures.map(doing, e);
        }
        try {
            if (pools.shared()) {
                Tx.beginSnapshot(first);
                return new Window(first, first, accountId, tableName, observer);
            }
            Tx.begin(first);
            return new Window(first, null, accountId, tableName, observer);
        } catch (SQLException | RuntimeException e) {
            Tx.release(first);
            throw PgFailures.mapSnapshot(doing, e);
        }
    }

    /**
     * The read window. On the shared layout {@code catalog == data}; on the separate layout the
     * data connection is borrowed once the definition is read (always after the catalog's).
     */
    private final class Window implements ReadWindow {
        private final Connection catalog;
        private Connection data;
        private final String accountId;
        private final String tableName;
        private final ReadObserver observer;
        private CatalogRows.Loaded loaded;
        private List<DataRelation> existing = List.of();
        private boolean keyOrdered;
        private boolean catalogEnded;
        private boolean handedOver;

        Window(Connection catalog, Connection data, String accountId, String tableName, ReadObserver observer) {
            this.catalog = catalog;
            this.data = data;
            this.accountId = accountId;
            this.tableName = tableName;
            this.observer = observer;
        }

        @Override
        public TableDescription readDefinition() {
            try {
                // Shared: the transaction's first statement, which takes its snapshot [P1].
                // Separate: the row FOR SHARE until the data transaction is pinned [P2]; a read-only opening
                // takes no lock (a row lock is a write) and checks the row once pinned instead.
                CatalogRows.RowLock lock = pools.shared() || pools.readOnly() ? CatalogRows.RowLock.NONE
                        : CatalogRows.RowLock.SHARE;
                loaded = CatalogRows.load(Work.dsl(catalog), accountId, tableName, lock)
                        .orElseThrow(() -> StorageException.tableNotFound(tableName));
                TableDescription description = loaded.description();
                if (description.status() != TableStatus.ACTIVE) {
                    return description;
                }
                if (data == null) {
                    data = pools.data();
                }
                existing = existingRelations(data, loaded.relations());
                if (!existing.contains(loaded.relations().get(0))) {
                    throw StorageException.tableNotFound(tableName);
                }
                Set<String> names = new HashSet<>();
                existing.forEach(r -> names.add(r.name()));
                Set<String> gsisWithRelation = new HashSet<>();
                loaded.indexes().stream()
                        .filter(i -> i.getKind().equals("GSI") && names.contains(i.getRelationName()))
                        .forEach(i -> gsisWithRelation.add(i.getIndexName()));
                // D9: a GSI whose data relation is missing is left out, with the definitions only it used.
                return description.withoutGsisMissingRelations(gsisWithRelation);
            } catch (SQLException | RuntimeException e) {
                throw failed("reading the definition", e);
            }
        }

        @Override
        public SnapshotInfo pin() {
            try {
                if (!pools.shared()) {
                    Tx.beginSnapshot(data);
                }
                // ACCESS SHARE on every relation of the table: a DROP now waits for this stream, and
                // DeleteTable's probe sees it. Not the snapshot-taking statement: LOCK takes no snapshot.
                List<org.jooq.Table<?>> tables = new ArrayList<>();
                existing.forEach(r -> tables.add(r.table()));
                Query lock = DSL.query("lock table {0} in access share mode", DSL.list(tables));
                Tx.exec(data, Work.dsl(data).renderInlined(lock));
                String marker;
                try (Statement s = data.createStatement();
                     ResultSet rs = s.executeQuery("SELECT pg_current_snapshot()::text")) {
                    rs.next();
                    marker = rs.getString(1);
                }
                keyOrdered = orderable();
                if (!pools.shared()) {
                    if (pools.readOnly()) {
                        requireRowUnchanged();
                    }
                    // Pinned and probed: now UpdateTable and DeleteTable may take the row [P2].
                    endCatalog();
                }
                return new SnapshotInfo(KIND, marker);
            } catch (SQLException | RuntimeException e) {
                throw failed("pinning the snapshot", e);
            }
        }

        /**
         * The read-only separate layout's stand-in for the row lock [P2]: the row's table id and catalog
         * version read again after the pin (a new statement of the catalog's READ COMMITTED transaction)
         * must be the ones loaded, or an UpdateTable or DeleteTable committed in between.
         */
        private void requireRowUnchanged() {
            // table_id and catalog_version change with every change of the definition, not with item counts.
            org.jooq.Record2<String, Long> now = Work.dsl(catalog).select(SP_TABLES.TABLE_ID, SP_TABLES.CATALOG_VERSION)
                    .from(SP_TABLES).where(SP_TABLES.ACCOUNT_ID.eq(accountId), SP_TABLES.TABLE_NAME.eq(tableName))
                    .fetchOne();
            if (now == null || !now.value1().equals(loaded.row().getTableId())
                    || !now.value2().equals(loaded.row().getCatalogVersion())) {
                throw new StorageException(ErrorReason.TRANSIENT, "table '" + tableName + "' changed while its"
                        + " snapshot opened; open it again");
            }
        }

        /** Whether the items can come in KeyOrder: a resolvable key and bytewise-collated text key columns [P4]. */
        private boolean orderable() throws SQLException {
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

        @Override
        public boolean keyOrdered() {
            return keyOrdered;
        }

        @Override
        public PageSource pages() {
            RelationLayout base = loaded.base();
            SelectJoinStep<Record1<String>> select = DSL.using(SQLDialect.POSTGRES).select(base.item()).from(base.relation().table());
            String query = (keyOrdered ? select.orderBy(base.keyColumns().toArray(new Field<?>[0])) : select)
                    .getSQL(ParamType.INLINED);
            try {
                Tx.exec(data, "DECLARE " + CURSOR + " NO SCROLL CURSOR FOR " + query);
            } catch (SQLException e) {
                throw failed("declaring the snapshot cursor", e);
            }
            handedOver = true;
            return new CursorPages(data, tableName, observer);
        }

        @Override
        public void close() {
            if (!handedOver) {
                if (data != null && data != catalog) {
                    Tx.release(data);
                }
                endCatalog();
            }
        }

        private void endCatalog() {
            if (!catalogEnded) {
                catalogEnded = true;
                Tx.release(catalog);
            }
        }

        private StorageException failed(String stage, Throwable e) {
            if (PgFailures.sqlState(e).equals("42P01")) {
                return new StorageException(ErrorReason.TABLE_NOT_FOUND, "Table not found: " + tableName
                        + " (its relations were dropped while the snapshot was opening: " + PgFailures.describe(e) + ")", e);
            }
            return PgFailures.mapSnapshot(stage + " of a snapshot of '" + tableName + "'", e);
        }
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

    /**
     * Pages from the snapshot's cursor, each FETCH one round trip. A FETCH asks for what is left of
     * the page's rows, or fewer when the items seen so far say the byte budget fills first; rows a
     * FETCH returned past a full page wait for the next page. So a page holds at most the byte
     * budget plus one item, and memory stays about one page whatever the table's size [S7].
     */
    static final class CursorPages implements PageSource {
        private final Connection data;
        private final String tableName;
        private final ReadObserver observer;
        private final ArrayDeque<String> fetched = new ArrayDeque<>();
        private boolean exhausted;
        private long rowsSeen;
        private long charsSeen;
        private boolean closed;

        CursorPages(Connection data, String tableName, ReadObserver observer) {
            this.data = data;
            this.tableName = tableName;
            this.observer = observer;
        }

        @Override
        public Page nextPage(PageBudget budget) {
            List<StoredItem> items = new ArrayList<>(Math.min(budget.rows(), 1024));
            long bytes = 0;
            try {
                while (!budget.full(items.size(), bytes)) {
                    if (fetched.isEmpty()) {
                        if (exhausted) {
                            break;
                        }
                        fetch(fetchRows(budget, items.size(), bytes));
                        if (fetched.isEmpty()) {
                            break;
                        }
                    }
                    String json = fetched.poll();
                    bytes += json.length();
                    items.add(new StoredJson(json));
                }
            } catch (SQLException e) {
                throw PgFailures.mapSnapshot("reading a page of a snapshot of '" + tableName + "'", e);
            }
            return new Page(items, exhausted && fetched.isEmpty());
        }

        /** Rows for the next FETCH: what is left of the page, bounded by what the byte budget allows. */
        int fetchRows(PageBudget budget, int itemsInPage, long bytesInPage) {
            int rowsLeft = budget.rows() - itemsInPage;
            if (rowsSeen == 0) {
                return Math.min(rowsLeft, FIRST_FETCH_ROWS);
            }
            long average = Math.max(1, charsSeen / rowsSeen);
            long byBytes = (budget.bytes() - bytesInPage) / average + 1;
            return (int) Math.max(1, Math.min(rowsLeft, byBytes));
        }

        private void fetch(int rows) throws SQLException {
            observer.roundTrip();
            int got = 0;
            try (Statement s = data.createStatement();
                 ResultSet rs = s.executeQuery("FETCH FORWARD " + rows + " FROM " + CURSOR)) {
                while (rs.next()) {
                    String json = rs.getString(1);
                    if (json == null) {
                        // A row this adapter cannot have written (its item column is NOT NULL): the stream ends here.
                        throw new StorageException(ErrorReason.INTERNAL, "a row of table '" + tableName
                                + "' has no item text; the snapshot stream ends at it");
                    }
                    fetched.add(json);
                    charsSeen += json.length();
                    got++;
                }
            }
            rowsSeen += got;
            if (got < rows) {
                exhausted = true;
            }
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                fetched.clear();
                // Ends the read transaction (the cursor with it) and gives the connection back.
                Tx.release(data);
            }
        }
    }
}
