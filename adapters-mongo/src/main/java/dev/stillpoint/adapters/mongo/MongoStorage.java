package dev.stillpoint.adapters.mongo;

import com.mongodb.client.MongoClient;
import dev.stillpoint.adapters.mongo.engine.MongoEngine;
import dev.stillpoint.domain.table.RestoreSummary;
import dev.stillpoint.ports.in.SnapshotEngine;
import dev.stillpoint.ports.in.Storage;
import dev.stillpoint.ports.in.StorageCapabilities;
import dev.stillpoint.ports.in.TableOperations;
import dev.stillpoint.core.snapshot.PermitLedger;
import java.util.List;

/**
 * Stillpoint on MongoDB (mongodb-driver-sync): one object that connects, applies the catalog's
 * schema steps, runs the control-plane poller and offers the driving ports. Snapshots need a replica
 * set member or a mongos; a standalone server answers them Unsupported [M2]. Close it to stop the
 * poller and close the client.
 */
public final class MongoStorage implements Storage {

    /** What this backend offers, known before anything is opened: MongoDB: everything. */
    public static final StorageCapabilities CAPABILITIES = StorageCapabilities.full("MongoDB");

    private final MongoEngine engine;

    private MongoStorage(MongoEngine engine) {
        this.engine = engine;
    }

    /** Connects and prepares the catalog; a server that cannot be reached is Transient. */
    public static MongoStorage open(MongoConfig config) {
        return new MongoStorage(MongoEngine.open(config));
    }

    /** Create, describe, list, add a GSI, delete (inline, never DELETING); put, get, delete items. */
    @Override
    public TableOperations tables() {
        return engine.tables();
    }

    /** Consistent table snapshots in a snapshot session [M1-M4]. */
    @Override
    public StorageCapabilities capabilities() {
        return CAPABILITIES;
    }

    @Override
    public SnapshotEngine snapshots() {
        return engine.snapshots();
    }

    /** Restores into new tables [E4, E5]; a restore killed with its process is removed by the next pass. */
    @Override
    public dev.stillpoint.ports.in.TableRestores restores() {
        return engine.restores();
    }

    /** The snapshot permits [D7]. */
    public PermitLedger snapshotPermits() {
        return engine.snapshotPermits();
    }

    /** Whether item writes run in transactions (a replica set member or mongos). */
    public boolean transactional() {
        return engine.transactional();
    }

    /** Records that the table was restored, as a restore does; its description then carries the summary [S2]. */
    public void recordRestore(String accountId, String tableName, RestoreSummary summary) {
        engine.recordRestore(accountId, tableName, summary);
    }

    /** The ids of an index's entries in {@code _id} order, for operators and tests. */
    public List<String> indexEntryIds(String accountId, String tableName, String indexName) {
        return engine.indexEntryIds(accountId, tableName, indexName);
    }

    /**
     * Drops data collections of tables this catalog deleted that have come back, e.g. one a racing put
     * re-created after DeleteTable; never a collection of a table this catalog did not record as deleted,
     * whatever its name [O1]. The control-plane poller runs it on every pass. Returns the names dropped.
     */
    public List<String> sweepOrphanedCollections() {
        return engine.sweepOrphans();
    }

    /**
     * The driver client this storage uses, for operators and tests that look at the databases directly
     * (e.g. a data collection's documents); Stillpoint's own calls never need it.
     */
    public MongoClient client() {
        return engine.client();
    }

    @Override
    public void close() {
        engine.close();
    }
}
