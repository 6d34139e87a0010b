package dev.stillpoint.adapters.mongo;

import com.mongodb.client.MongoClient;
import dev.stillpoint.adapters.mongo.engine.MongoEngine;
import dev.stillpoint.core.StorageCore;
import dev.stillpoint.core.StorageFacade;
import dev.stillpoint.domain.table.RestoreSummary;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.in.StorageCapabilities;
import java.util.List;

/**
 * Stillpoint on MongoDB (mongodb-driver-sync): one object that connects, applies the catalog's
 * schema steps, runs the control-plane poller and offers the driving ports. Snapshots need a replica
 * set member or a mongos; a standalone server answers them Unsupported [M2]. Close it to stop the
 * poller and close the client.
 */
public final class MongoStorage extends StorageFacade {

    /** What this backend offers, known before anything is opened: MongoDB: everything but a change log. */
    public static final StorageCapabilities CAPABILITIES = StorageCapabilities.full("MongoDB");

    private final MongoEngine engine;

    /** The core tells the time by the engine's clock, the server's ({@code CatalogClock}) [E5]. */
    private MongoStorage(MongoEngine engine) {
        super(CAPABILITIES, new StorageCore(engine.config().coreSettings(), "stillpoint-mongo-control-plane"),
                engine::close);
        this.engine = engine;
        engine.assemble(core(), engine.config());
        core().start();
    }

    /** Connects and prepares the catalog; a server that cannot be reached is Transient. */
    public static MongoStorage open(MongoConfig config) {
        MongoEngine engine = MongoEngine.connect(config);
        try {
            return new MongoStorage(engine);
        } catch (RuntimeException e) {
            engine.close();
            throw e;
        }
    }

    /** Never: a MongoDB opening always writes. */
    @Override
    public boolean readOnly() {
        return false;
    }

    @Override
    protected void writeRestoreRecord(TableDescription table, RestoreSummary summary) {
        engine.writeRestoreRecord(table, summary);
    }

    /** Whether item writes run in transactions (a replica set member or mongos). */
    public boolean transactional() {
        return engine.transactional();
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
}
