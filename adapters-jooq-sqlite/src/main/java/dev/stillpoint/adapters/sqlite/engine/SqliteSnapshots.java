package dev.stillpoint.adapters.sqlite.engine;

import dev.stillpoint.adapters.sqlite.storage.DataRelation;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.key.KeyOrder;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.in.SnapshotInfo;
import dev.stillpoint.ports.in.StoredItem;
import dev.stillpoint.ports.out.Page;
import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.ports.out.PageSource;
import dev.stillpoint.ports.out.ReadObserver;
import dev.stillpoint.ports.out.ReadWindow;
import dev.stillpoint.ports.out.SnapshotReadPort;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Snapshots on SQLite [Q1-Q4]. A file database: one deferred read transaction on a pooled
 * connection, pinned by its first read (the catalog row), so definition and items are one WAL
 * snapshot and writers never wait; pages by row-value keyset on the primary key, or by rowid when
 * the key is unorderable. An in-memory database (one connection): the open copies every page
 * inside its transaction and streams the copy, holding no connection.
 */
public final class SqliteSnapshots implements SnapshotReadPort {

    private final Connections connections;
    private final PageBudget copyPages;

    public SqliteSnapshots(Connections connections, PageBudget copyPages) {
        this.connections = connections;
        this.copyPages = copyPages;
    }

    @Override
    public ReadWindow begin(String accountId, String tableName, ReadObserver observer) {
        Connections.Borrowed borrowed = connections.read();
        try {
            Tx.beginRead(borrowed.connection());
        } catch (SQLException e) {
            borrowed.close();
            throw SqlFailures.map("opening a snapshot of '" + tableName + "'", e);
        }
        return new Window(borrowed, accountId, tableName, observer);
    }

    private final class Window implements ReadWindow {
        private final Connections.Borrowed borrowed;
        private final Connection c;
        private final String accountId;
        private final String tableName;
        private final ReadObserver observer;
        private CatalogRows.Loaded loaded;
        private boolean ended;

        Window(Connections.Borrowed borrowed, String accountId, String tableName, ReadObserver observer) {
            this.borrowed = borrowed;
            this.c = borrowed.connection();
            this.accountId = accountId;
            this.tableName = tableName;
            this.observer = observer;
        }

        @Override
        public TableDescription readDefinition() {
            try {
                // The transaction's first read: it pins the WAL snapshot the items come from [Q1].
                loaded = CatalogRows.load(SqliteCatalog.dsl(c), accountId, tableName)
                        .orElseThrow(() -> StorageException.tableNotFound(tableName));
            } catch (RuntimeException e) {
                throw SqlFailures.map("reading the definition of '" + tableName + "'", e);
            }
            return loaded.record().description();
        }

        @Override
        public SnapshotInfo pin() {
            // Read in the transaction readDefinition pinned: the commits this snapshot saw [L5].
            try {
                return new SnapshotInfo("sqlite-wal", loaded.row().getTableId() + "@" + CommitSequence.read(SqliteCatalog.dsl(c)));
            } catch (RuntimeException e) {
                throw SqlFailures.map("pinning the snapshot of '" + tableName + "'", e);
            }
        }

        @Override
        public boolean keyOrdered() {
            TableDescription d = loaded.record().description();
            return KeyOrder.resolve(d.keySchema(), d.attributeDefinitions()) .ordered().isPresent();
        }

        @Override
        public PageSource pages() {
            DataRelation base = loaded.base();
            PageSource live = keyOrdered() ? new KeysetPages(this, base) : new RowidPages(this, base);
            if (!connections.inMemory()) {
                return live;
            }
            return copyAll(live);
        }

        /** The in-memory shape [Q4]: every page read now, in this transaction; the connection goes back at once. */
        private PageSource copyAll(PageSource live) {
            List<StoredItem> copy = new ArrayList<>();
            try {
                Page page;
                do {
                    page = live.nextPage(copyPages);
                    copy.addAll(page.items());
                } while (!page.last());
            } finally {
                live.close();
            }
            return new CopyPages(copy);
        }

        @Override
        public void close() {
            if (!ended) {
                ended = true;
                Tx.rollbackQuietly(c);
                borrowed.close();
            }
        }

        PreparedStatement prepare(String sql) {
            try {
                return c.prepareStatement(sql);
            } catch (SQLException e) {
                throw SqlFailures.map("preparing the page query of '" + tableName + "'", e);
            }
        }

        StorageException failed(SQLException e) {
            return SqlFailures.map("reading a page of '" + tableName + "'", e);
        }
    }

    /** Row-value keyset pages on the primary key: {@code WHERE (pk, sk) > (?, ?) ORDER BY pk, sk} [Q3]. */
    private static final class KeysetPages implements PageSource {
        private final Window window;
        private final PreparedStatement first;
        private final PreparedStatement next;
        private byte[] lastPk;
        private byte[] lastSk;

        KeysetPages(Window window, DataRelation base) {
            this.window = window;
            this.first = window.prepare(PageQueries.firstKeysetPage(base));
            this.next = window.prepare(PageQueries.nextKeysetPage(base));
        }

        @Override
        public Page nextPage(PageBudget budget) {
            try {
                PreparedStatement q;
                if (lastPk == null) {
                    q = first;
                    q.setInt(1, budget.rows());
                } else {
                    q = next;
                    q.setBytes(1, lastPk);
                    q.setBytes(2, lastSk);
                    q.setInt(3, budget.rows());
                }
                window.observer.roundTrip();
                List<StoredItem> items = new ArrayList<>(Math.min(budget.rows(), 1024));
                long bytes = 0;
                try (ResultSet rs = q.executeQuery()) {
                    while (rs.next()) {
                        String json = rs.getString(3);
                        byte[] pk = rs.getBytes(1);
                        byte[] sk = rs.getBytes(2);
                        bytes += json.length();
                        // The row's key goes with the item: an export checks the JSON names it [E1].
                        items.add(new StoredJson(json, pk, sk));
                        if (budget.full(items.size(), bytes)) {
                            // The row that fills the page is where the next page starts.
                            lastPk = pk;
                            lastSk = sk;
                            break;
                        }
                    }
                }
                // A page cut short by rows or bytes may have more behind it; one with room left is the end.
                return new Page(items, !budget.full(items.size(), bytes));
            } catch (SQLException e) {
                throw window.failed(e);
            }
        }

        @Override
        public void close() {
            PageQueries.closeQuietly(first, next);
            window.close();
        }
    }

    /** Rowid pages for a table whose key is unorderable: complete, in no key order [D1, Q3]. */
    private static final class RowidPages implements PageSource {
        private final Window window;
        private final PreparedStatement query;
        private long lastRowid = Long.MIN_VALUE;

        RowidPages(Window window, DataRelation base) {
            this.window = window;
            this.query = window.prepare(PageQueries.rowidPage(base));
        }

        @Override
        public Page nextPage(PageBudget budget) {
            try {
                query.setLong(1, lastRowid);
                query.setInt(2, budget.rows());
                window.observer.roundTrip();
                List<StoredItem> items = new ArrayList<>(Math.min(budget.rows(), 1024));
                long bytes = 0;
                try (ResultSet rs = query.executeQuery()) {
                    while (!budget.full(items.size(), bytes) && rs.next()) {
                        lastRowid = rs.getLong(1);
                        String json = rs.getString(2);
                        bytes += json.length();
                        items.add(new StoredJson(json, rs.getBytes(3), rs.getBytes(4)));
                    }
                }
                return new Page(items, !budget.full(items.size(), bytes));
            } catch (SQLException e) {
                throw window.failed(e);
            }
        }

        @Override
        public void close() {
            PageQueries.closeQuietly(query);
            window.close();
        }
    }

    /** Pages over an in-memory copy; no connection is held. */
    private static final class CopyPages implements PageSource {
        private final List<StoredItem> copy;
        private int next;

        CopyPages(List<StoredItem> copy) {
            this.copy = copy;
        }

        @Override
        public Page nextPage(PageBudget budget) {
            int from = next;
            long bytes = 0;
            while (next < copy.size() && !budget.full(next - from, bytes)) {
                bytes += copy.get(next).json().length();
                next++;
            }
            return new Page(copy.subList(from, next), next >= copy.size());
        }

        @Override
        public void close() {
            next = copy.size();
        }
    }
}
