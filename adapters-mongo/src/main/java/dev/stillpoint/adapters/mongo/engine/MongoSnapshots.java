package dev.stillpoint.adapters.mongo.engine;

import static com.mongodb.client.model.Filters.eq;

import com.mongodb.ClientSessionOptions;
import com.mongodb.ReadConcern;
import com.mongodb.client.ClientSession;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoCursor;
import com.mongodb.client.model.Sorts;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.in.SnapshotInfo;
import dev.stillpoint.ports.in.StoredKeys;
import dev.stillpoint.ports.out.BegunRead;
import dev.stillpoint.ports.out.DefinedRead;
import dev.stillpoint.ports.out.Page;
import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.ports.out.PageSource;
import dev.stillpoint.ports.out.PinnedRead;
import dev.stillpoint.ports.out.ReadObserver;
import dev.stillpoint.ports.out.SnapshotReadPort;
import java.util.List;
import org.bson.BsonDocument;
import org.bson.BsonTimestamp;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Snapshots on MongoDB [M1-M4]: a {@code ClientSession} started with {@code snapshot(true)}. Its first
 * read (the table's catalog document) fixes the cluster time; the index documents and every page of
 * the items are read in the same session at that time, which is the marker.
 *
 * <p>Every read sets readConcern {@code snapshot} on its collection handle. The driver adds the level
 * only when neither the operation nor its database carries one, and a handle made under a URI with
 * {@code readConcernLevel=} carries that level: the first read would then report no snapshot time
 * (refused here, naming the read concern) and later ones would be refused by the server with
 * InvalidOptions (72).
 *
 * <p>Items come from one cursor on the base collection, its batch size the page's rows; they arrive
 * in {@code _id} order, which is not {@code KeyOrder}, so {@code keyOrdered} is false [M3]. The
 * server keeps the snapshot's history for {@code minSnapshotHistoryWindowInSeconds} (300 s by
 * default); a stream slower than that ends with SnapshotExpired (SnapshotTooOld, 239).
 */
final class MongoSnapshots implements SnapshotReadPort {

    private static final Logger LOG = LoggerFactory.getLogger(MongoSnapshots.class);
    private static final ClientSessionOptions SNAPSHOT = ClientSessionOptions.builder()
            .snapshot(true).causallyConsistent(false).build();

    private final Transactions work;
    private final MongoCatalog catalog;

    MongoSnapshots(Transactions work, MongoCatalog catalog) {
        this.work = work;
        this.catalog = catalog;
    }

    @Override
    public BegunRead begin(String accountId, String tableName, ReadObserver observer) {
        ClientSession session = work.run("starting a snapshot session for table '" + tableName + "'",
                () -> work.client().startSession(SNAPSHOT));
        return new Begun(work, catalog, new Session(session, tableName, work), accountId);
    }

    /** The snapshot's session; whichever step or page source owns it ends it, once. */
    private record Session(ClientSession session, String tableName, Transactions work) {
        void end() {
            try {
                session.close();
            } catch (RuntimeException e) {
                LOG.warn("closing the snapshot session of table '{}': {}", tableName, e.toString());
            }
        }
    }

    /** Begun: the session is started; its first read will fix the cluster time. */
    private record Begun(Transactions work, MongoCatalog catalog, Session session, String accountId) implements BegunRead {
        @Override
        public DefinedRead readDefinition() {
            String tableName = session.tableName();
            ClientSession s = session.session();
            String doing = "reading the definition of table '" + tableName + "' in a snapshot session";
            MongoCollection<BsonDocument> tables = catalog.tables().withReadConcern(ReadConcern.SNAPSHOT);
            BsonDocument table = work.run(doing, () -> tables.find(s,
                    eq("_id", CatalogDocuments.tableDocumentId(accountId, tableName))).first());
            BsonTimestamp atClusterTime = s.getSnapshotTimestamp();
            if (atClusterTime == null) {
                throw MongoFailures.noSnapshotTime(doing, tables.getReadConcern());
            }
            if (table == null) {
                throw StorageException.tableNotFound(tableName);
            }
            List<BsonDocument> indexes = work.run(doing, () -> Transactions.all(
                    catalog.indexes().withReadConcern(ReadConcern.SNAPSHOT), s,
                    eq("table_id", table.getString("table_id").getValue()), Sorts.ascending("ordinal")));
            CatalogDocuments.Loaded loaded = CatalogDocuments.load(table, indexes);
            return new Defined(work, session, loaded, loaded.record().description(), atClusterTime);
        }

        @Override
        public void close() {
            session.end();
        }
    }

    /** Defined: the catalog documents are read at the cluster time the first read fixed. */
    private record Defined(Transactions work, Session session, CatalogDocuments.Loaded loaded, TableDescription description,
                           BsonTimestamp atClusterTime) implements DefinedRead {
        @Override
        public PinnedRead pin() {
            // The catalog read already fixed the instant; the marker is that cluster time.
            SnapshotInfo info = new SnapshotInfo("mongodb-cluster-time", atClusterTime.getTime() + "." + atClusterTime.getInc());
            return new Pinned(session, work.data(loaded.baseCollection()).withReadConcern(ReadConcern.SNAPSHOT), info);
        }

        @Override
        public void close() {
            session.end();
        }
    }

    /** Pinned: the marker is known; items come in {@code _id} order, not KeyOrder [M3]. */
    private record Pinned(Session session, MongoCollection<BsonDocument> base, SnapshotInfo info) implements PinnedRead {
        @Override
        public boolean keyOrdered() {
            return false;
        }

        @Override
        public PageSource pages(StoredKeys storedKeys) {
            // With INCLUDED, each item carries its document's _id, the key it is stored under apart from the item [E1].
            return new CursorPages(session, base, storedKeys == StoredKeys.INCLUDED);
        }

        @Override
        public void close() {
            session.end();
        }
    }

    /** The items from one cursor in the snapshot session; the find is sent with the first page. */
    private static final class CursorPages implements PageSource {
        private final Session session;
        private final MongoCollection<BsonDocument> base;
        private final boolean withIds;
        private MongoCursor<BsonDocument> cursor;

        CursorPages(Session session, MongoCollection<BsonDocument> base, boolean withIds) {
            this.session = session;
            this.base = base;
            this.withIds = withIds;
        }

        @Override
        public Page nextPage(PageBudget budget) {
            String doing = "reading table '" + session.tableName() + "' in its snapshot";
            try {
                if (cursor == null) {
                    cursor = base.find(session.session()).batchSize(budget.rows()).iterator();
                }
                List<dev.stillpoint.ports.in.StoredItem> items = DocumentPages.fill(cursor, budget, base.getNamespace()
                        .getCollectionName(), withIds);
                // Exhausted when nothing is buffered and the server closed the cursor: no getMore needed to know.
                boolean last = cursor.available() == 0 && cursor.getServerCursor() == null;
                return new Page(items, last);
            } catch (RuntimeException e) {
                // A page the storage's close cut off says the storage is closed, not the driver's words for it.
                throw session.work().closedOr(MongoFailures.map(doing, e));
            }
        }

        @Override
        public void close() {
            try {
                if (cursor != null) {
                    cursor.close();
                }
            } catch (RuntimeException e) {
                LOG.warn("closing the snapshot cursor of table '{}': {}", session.tableName(), e.toString());
            } finally {
                session.end();
            }
        }
    }
}
