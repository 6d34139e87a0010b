package dev.stillpoint.adapters.mongo.engine;

import com.mongodb.MongoException;
import com.mongodb.ReadConcern;
import com.mongodb.ReadPreference;
import com.mongodb.TransactionOptions;
import com.mongodb.WriteConcern;
import com.mongodb.client.ClientSession;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.connection.ClusterType;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import org.bson.BsonDocument;
import org.bson.conversions.Bson;

/**
 * How the adapter's reads and writes reach MongoDB. On a replica set (or sharded cluster) a write
 * that touches several documents (an item and its index entries, a table and its index documents)
 * is one transaction, retried by the driver on transient errors; a standalone server has no
 * transactions, so there the same steps run one by one (and a crash between them can leave an
 * index entry behind its item). Every driver failure leaves here mapped into the closed set [D10].
 */
final class Transactions {

    private static final TransactionOptions TRANSACTION = TransactionOptions.builder()
            .readConcern(ReadConcern.SNAPSHOT)
            .writeConcern(WriteConcern.MAJORITY)
            .readPreference(ReadPreference.primary())
            .build();

    private final String where;
    private final MongoClient client;
    private final MongoDatabase catalog;
    private final MongoDatabase data;
    private final boolean transactions;
    private volatile boolean closed;

    Transactions(String where, MongoClient client, MongoDatabase catalog, MongoDatabase data, boolean transactions) {
        this.where = where;
        this.client = client;
        this.catalog = catalog;
        this.data = data;
        this.transactions = transactions;
    }

    /** Whether the deployment has transactions: a replica set or a sharded cluster, not a standalone. */
    static boolean supportsTransactions(ClusterType type) {
        return type == ClusterType.REPLICA_SET || type == ClusterType.SHARDED;
    }

    MongoClient client() {
        return client;
    }

    MongoCollection<BsonDocument> catalog(String name) {
        return catalog.getCollection(name, BsonDocument.class);
    }

    MongoCollection<BsonDocument> data(String name) {
        return data.getCollection(name, BsonDocument.class);
    }

    MongoDatabase dataDatabase() {
        return data;
    }

    MongoDatabase catalogDatabase() {
        return catalog;
    }

    boolean transactional() {
        return transactions;
    }

    /**
     * Closes the client. Every later call is refused TRANSIENT saying the storage is closed, and so is one
     * the close cut off: the driver's own words for it ("state should be: open") name no cause a caller knows.
     */
    void close() {
        closed = true;
        client.close();
    }

    /** {@code failure}, or the closed storage's refusal when the storage was closed meanwhile. */
    StorageException closedOr(StorageException failure) {
        return closed ? closedRefusal() : failure;
    }

    private void requireOpen() {
        if (closed) {
            throw closedRefusal();
        }
    }

    private StorageException closedRefusal() {
        return new StorageException(ErrorReason.TRANSIENT, "the MongoDB storage at " + where
                + " is closed (MongoStorage.close): nothing is read or written after it");
    }

    /** Runs {@code body} as one transaction where the server has them; its session is null where not. */
    <T> T write(String doing, Function<ClientSession, T> body) {
        requireOpen();
        try {
            if (!transactions) {
                return body.apply(null);
            }
            try (ClientSession session = client.startSession()) {
                return session.withTransaction(() -> body.apply(session), TRANSACTION);
            }
        } catch (RuntimeException e) {
            throw closedOr(MongoFailures.map(doing, e));
        }
    }

    /** Runs one operation (a read, a single-document write, a DDL step; also inside a transaction body), failures mapped. */
    <T> T run(String doing, Supplier<T> body) {
        requireOpen();
        try {
            return body.get();
        } catch (MongoException e) {
            if (e.hasErrorLabel(MongoException.TRANSIENT_TRANSACTION_ERROR_LABEL)) {
                throw e;   // inside a transaction: the driver's withTransaction retries it; write() maps it after
            }
            throw closedOr(MongoFailures.map(doing, e));
        } catch (RuntimeException e) {
            throw closedOr(MongoFailures.map(doing, e));
        }
    }

    // The driver has an overload per operation with and without a session; these pick one.

    static BsonDocument first(MongoCollection<BsonDocument> c, ClientSession s, Bson filter) {
        return s == null ? c.find(filter).first() : c.find(s, filter).first();
    }

    static List<BsonDocument> all(MongoCollection<BsonDocument> c, ClientSession s, Bson filter, Bson sort) {
        return (s == null ? c.find(filter) : c.find(s, filter)).sort(sort).into(new java.util.ArrayList<>());
    }

    static void replace(MongoCollection<BsonDocument> c, ClientSession s, Bson filter, BsonDocument doc) {
        com.mongodb.client.model.ReplaceOptions upsert = new com.mongodb.client.model.ReplaceOptions().upsert(true);
        if (s == null) {
            c.replaceOne(filter, doc, upsert);
        } else {
            c.replaceOne(s, filter, doc, upsert);
        }
    }

    static void insert(MongoCollection<BsonDocument> c, ClientSession s, BsonDocument doc) {
        if (s == null) {
            c.insertOne(doc);
        } else {
            c.insertOne(s, doc);
        }
    }

    static long deleteMany(MongoCollection<BsonDocument> c, ClientSession s, Bson filter) {
        return (s == null ? c.deleteMany(filter) : c.deleteMany(s, filter)).getDeletedCount();
    }

    static long update(MongoCollection<BsonDocument> c, ClientSession s, Bson filter, Bson update) {
        return (s == null ? c.updateOne(filter, update) : c.updateOne(s, filter, update)).getModifiedCount();
    }
}
