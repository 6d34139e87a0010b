package dev.stillpoint.adapters.sqlite.engine;

import dev.stillpoint.adapters.sqlite.storage.DataRelation;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.ports.in.StoredItem;
import dev.stillpoint.ports.in.StoredKeys;
import dev.stillpoint.ports.out.Page;
import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.ports.out.PageSource;
import dev.stillpoint.ports.out.ReadObserver;
import dev.stillpoint.ports.out.SegmentSources;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * A pinned SQLite read cut into segments [B2]. SQLite cannot share a read transaction between
 * connections (its WAL snapshot belongs to the connection that began it), so every segment pages
 * through the ONE read transaction of the snapshot, one page at a time (a page holds the connection's
 * monitor), and the read itself is the segments' shared read: it ends when the last segment ends.
 *
 * <p>The boundaries are the keys at positions i * count / N of the key order, read in the same
 * transaction ({@code ORDER BY pk, sk LIMIT 1 OFFSET ?}: each walks the primary key index up to its
 * position, about N/2 walks of the table's keys in all), so the segments hold equal numbers of items.
 * Segment i is {@code (pk, sk) >= b(i) AND (pk, sk) < b(i+1)}; the first has no lower bound, the last
 * no upper, so the union is every key whatever the boundaries are.
 */
final class SqliteSegments {

    private SqliteSegments() {
    }

    /**
     * Cuts the read on {@code connection} into {@code segments} key ranges; {@code endRead} ends the read
     * once the last segment ended, {@code closedOr} turns a page read the storage's close cut off into its
     * refusal. When it throws, the read is left to the caller.
     */
    static SegmentSources cut(Connection connection, DataRelation base, long count, int segments, StoredKeys storedKeys,
                              ReadObserver observer, String tableName, AutoCloseable endRead,
                              UnaryOperator<StorageException> closedOr) throws SQLException {
        List<byte[][]> bounds = new ArrayList<>(segments - 1);
        try (PreparedStatement at = connection.prepareStatement(PageQueries.keyAt(base))) {
            for (int i = 1; i < segments; i++) {
                long offset = (long) i * count / segments;
                at.setLong(1, offset);
                observer.roundTrip();
                try (ResultSet rs = at.executeQuery()) {
                    bounds.add(rs.next() ? new byte[][] {rs.getBytes(1), rs.getBytes(2)} : null);
                }
            }
        }
        List<PageSource> sources = new ArrayList<>(segments);
        try {
            for (int i = 0; i < segments; i++) {
                byte[][] lower = i == 0 ? null : bounds.get(i - 1);
                byte[][] upper = i == segments - 1 ? null : bounds.get(i);
                sources.add(i > 0 && lower == null ? new CopyPages(List.of())
                        : new RangePages(connection, base, lower, upper, storedKeys, observer, tableName, closedOr));
            }
        } catch (RuntimeException e) {
            sources.forEach(PageSource::close);
            throw e;
        }
        return new SegmentSources(sources, endRead);
    }

    /**
     * The in-memory shape [Q4]: the copy the open made, cut at i * size / N; it holds no connection.
     */
    static SegmentSources cutCopy(List<StoredItem> copy, int segments) {
        List<PageSource> sources = new ArrayList<>(segments);
        for (int i = 0; i < segments; i++) {
            sources.add(new CopyPages(copy.subList((int) ((long) i * copy.size() / segments),
                    (int) ((long) (i + 1) * copy.size() / segments))));
        }
        return new SegmentSources(sources, SegmentSources.NOTHING_SHARED);
    }

    /** Keyset pages of one key range of the shared read; closing them leaves the read open. */
    private static final class RangePages implements PageSource {
        private final Connection connection;
        private final PreparedStatement first;
        private final PreparedStatement next;
        private final byte[][] lower;
        private final byte[][] upper;
        private final StoredKeys storedKeys;
        private final ReadObserver observer;
        private final String tableName;
        private final UnaryOperator<StorageException> closedOr;
        private byte[] lastPk;
        private byte[] lastSk;

        RangePages(Connection connection, DataRelation base, byte[][] lower, byte[][] upper, StoredKeys storedKeys,
                   ReadObserver observer, String tableName, UnaryOperator<StorageException> closedOr) {
            this.connection = connection;
            this.closedOr = closedOr;
            this.lower = lower;
            this.upper = upper;
            this.storedKeys = storedKeys;
            this.observer = observer;
            this.tableName = tableName;
            try {
                this.first = connection.prepareStatement(PageQueries.segmentPage(base, lower != null, true, upper != null));
                this.next = connection.prepareStatement(PageQueries.segmentPage(base, true, false, upper != null));
            } catch (SQLException e) {
                throw SqlFailures.map("preparing the segment queries of '" + tableName + "'", e);
            }
        }

        @Override
        public Page nextPage(PageBudget budget) {
            // One connection under every segment: one page query on it at a time.
            synchronized (connection) {
                try {
                    PreparedStatement q = lastPk == null ? first : next;
                    int p = 1;
                    if (lastPk != null) {
                        q.setBytes(p++, lastPk);
                        q.setBytes(p++, lastSk);
                    } else if (lower != null) {
                        q.setBytes(p++, lower[0]);
                        q.setBytes(p++, lower[1]);
                    }
                    if (upper != null) {
                        q.setBytes(p++, upper[0]);
                        q.setBytes(p++, upper[1]);
                    }
                    q.setInt(p, budget.rows());
                    observer.roundTrip();
                    KeysetPage read = KeysetPage.read(q, budget, storedKeys);
                    read.next().ifPresent(k -> {
                        lastPk = k[0];
                        lastSk = k[1];
                    });
                    return read.page();
                } catch (SQLException e) {
                    throw closedOr.apply(SqlFailures.map("reading a page of a segment of '" + tableName + "'", e));
                }
            }
        }

        @Override
        public void close() {
            // Closing a closed statement has no effect (JDBC), so a second close needs no guard.
            synchronized (connection) {
                PageQueries.closeQuietly(first, next);
            }
        }
    }
}
