package dev.stillpoint.adapters.mongo.engine;

import com.mongodb.MongoClientSettings;
import com.mongodb.ConnectionString;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import dev.stillpoint.adapters.mongo.MongoConfig;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.snapshot.PermitPool;
import dev.stillpoint.domain.table.RestoreSummary;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.core.CatalogClock;
import dev.stillpoint.core.StorageCore;
import dev.stillpoint.core.ControlPlanePorts;
import dev.stillpoint.core.PassChore;
import dev.stillpoint.ports.out.TimeSource;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import org.bson.BsonDateTime;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonValue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MongoDB adapter's parts, wired: the client, the catalog's schema steps, and the driven ports the
 * core's {@link StorageCore} is assembled from (the control-plane poller only ever activates CREATING
 * tables: nothing on MongoDB is ever DELETING). {@code MongoStorage} is the facade over it.
 */
public final class MongoEngine implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(MongoEngine.class);

    /** Catalog schema versions this adapter knows; a catalog that has applied a later one is refused. */
    static final int SCHEMA_VERSION = 2;

    private final MongoClient client;
    private final MongoConfig config;
    private final Transactions work;
    private final MongoCatalog catalog;
    private final MongoTables storage;
    private final OrphanSweep sweep;

    private MongoEngine(MongoConfig configured, MongoClient client) {
        this.client = client;
        // A hello selects a server, so the driver's view of the deployment is known afterwards; its localTime
        // sets the catalog's clock, by which every stamp is written and judged [E5].
        Instant before = configured.time().now();
        BsonDocument hello = client.getDatabase("admin").runCommand(new BsonDocument("hello", new BsonInt32(1)),
                BsonDocument.class);
        this.config = configured.withCoreSettings(configured.coreSettings()
                .withTime(catalogClock(configured.time(), before, hello, configured.time().now())));
        this.work = new Transactions(config.redactedConnectionString(), client,
                client.getDatabase(config.catalogDatabase()), client.getDatabase(config.dataDatabase()),
                Transactions.supportsTransactions(client.getClusterDescription().getType()));
        if (!work.transactional()) {
            LOG.warn("MongoDB at {} is not a replica set member: item writes run without transactions, and"
                    + " snapshots are refused (Unsupported)", config.redactedConnectionString());
        }
        applySchema(work);
        this.catalog = new MongoCatalog(work, config.time(), config.controlPlaneDelay());
        this.sweep = new OrphanSweep(work, catalog);
        this.storage = new MongoTables(work, catalog);
    }

    /**
     * {@code local} corrected to the server's clock by a {@code hello} reply, read between the local readings
     * {@code before} and {@code after}: its {@code localTime}, "the local server time in UTC" (MongoDB's
     * manual, the hello command's output). A reply without one leaves the local clock as it is, and says so.
     */
    static CatalogClock catalogClock(TimeSource local, Instant before, BsonDocument hello, Instant after) {
        BsonValue server = hello.get("localTime");
        if (server == null || !server.isDateTime()) {
            LOG.warn("MongoDB's hello reply has no localTime: stamps are judged by this host's clock, not the server's");
            return CatalogClock.measured(local, before, before, before);
        }
        return CatalogClock.measured(local, before, Instant.ofEpochMilli(server.asDateTime().getValue()), after);
    }

    /** The configuration this engine was opened with, its clock corrected to the server's ({@link CatalogClock}). */
    public MongoConfig config() {
        return config;
    }

    /** Connects and applies the catalog's schema steps; nothing runs until {@link #assemble} and the core's start. */
    public static MongoEngine connect(MongoConfig config) {
        MongoClientSettings.Builder settings = MongoClientSettings.builder()
                .applyConnectionString(new ConnectionString(config.connectionString()))
                .applicationName("stillpoint");
        config.commandListeners().forEach(settings::addCommandListener);
        MongoClient client;
        try {
            client = MongoClients.create(settings.build());
        } catch (RuntimeException e) {
            throw MongoFailures.map("connecting to MongoDB at " + config.redactedConnectionString(), e);
        }
        try {
            return new MongoEngine(config, client);
        } catch (RuntimeException e) {
            client.close();
            throw MongoFailures.map("opening the MongoDB catalog at " + config.redactedConnectionString(), e);
        }
    }

    /**
     * Assembles {@code core} over this engine's ports. Zero delay: MongoDB never schedules a drop for later,
     * whatever the control-plane delay, so DeleteTable always takes the synchronous path and the pass only
     * ever activates CREATING tables; every pass, the startup-recovery pass first, sweeps collections left
     * without their table [O1].
     */
    public void assemble(StorageCore core, MongoConfig config) {
        core.assemble(new ControlPlanePorts(catalog, new InlineDrops(catalog, work), () -> Duration.ZERO,
                storage, storage, storage, List.of(new PassChore("orphan sweep", sweep::run)),
                config.coreSettings().restoreIdleLimit()), new MongoSnapshots(work, catalog),
                PermitPool.withCapacity(config.snapshotPermits()));
    }

    /**
     * Versioned schema steps, recorded in {@code sp_schema} ({@code _id} the version). Step 1 creates the
     * catalog collections and their indexes; step 2 the register of deleted tables the orphan sweep reads [O1].
     * Creating an existing index is a no-op, so a restart is safe.
     */
    private static void applySchema(Transactions work) {
        var schema = work.catalog(CatalogDocuments.SCHEMA);
        int applied = 0;
        for (BsonDocument d : schema.find()) {
            BsonValue id = d.get("_id");
            applied = Math.max(applied, id.isInt32() ? id.asInt32().getValue() : 0);
        }
        if (applied > SCHEMA_VERSION) {
            throw StorageException.internal("the MongoDB catalog has schema version " + applied
                    + "; this adapter knows up to " + SCHEMA_VERSION, null);
        }
        if (applied < 1) {
            List<String> existing = work.catalogDatabase().listCollectionNames().into(new java.util.ArrayList<>());
            for (String name : List.of(CatalogDocuments.TABLES, CatalogDocuments.INDEXES)) {
                if (!existing.contains(name)) {
                    work.catalogDatabase().createCollection(name);
                }
            }
            work.catalog(CatalogDocuments.TABLES).createIndex(Indexes.ascending("account_id", "table_name"),
                    new IndexOptions().name("account_table"));
            work.catalog(CatalogDocuments.TABLES).createIndex(Indexes.ascending("status"), new IndexOptions().name("status"));
            work.catalog(CatalogDocuments.INDEXES).createIndex(Indexes.ascending("table_id", "ordinal"),
                    new IndexOptions().name("table_ordinal"));
            recordSchemaStep(schema, 1);
        }
        if (applied < 2) {
            // The register of deleted tables [O1], created before any transaction writes to it (a collection
            // made implicitly inside a transaction needs MongoDB 4.4 or later).
            if (!work.catalogDatabase().listCollectionNames().into(new java.util.ArrayList<>())
                    .contains(CatalogDocuments.DROPPED_TABLES)) {
                work.catalogDatabase().createCollection(CatalogDocuments.DROPPED_TABLES);
            }
            recordSchemaStep(schema, 2);
        }
    }

    private static void recordSchemaStep(com.mongodb.client.MongoCollection<BsonDocument> schema, int step) {
        schema.replaceOne(new BsonDocument("_id", new BsonInt32(step)),
                new BsonDocument("_id", new BsonInt32(step)).append("applied_at", new BsonDateTime(new Date().getTime())),
                new com.mongodb.client.model.ReplaceOptions().upsert(true));
    }

    /** Whether item writes run in transactions (replica set or mongos). */
    public boolean transactional() {
        return work.transactional();
    }

    /** Writes the restore record of the table as described; its description then carries the summary [S2]. */
    public void writeRestoreRecord(TableDescription table, RestoreSummary summary) {
        catalog.writeRestore(table, summary);
    }

    /** The ids of an index's entries, in {@code _id} order (tests, operators). */
    public List<String> indexEntryIds(String accountId, String tableName, String indexName) {
        return storage.entryIds(accountId, tableName, indexName);
    }

    /** Drops re-created data collections of tables this catalog deleted [O1] (the poller runs it every pass). */
    public List<String> sweepOrphans() {
        return sweep.run();
    }

    /** The driver client (tests use it to reach their scratch databases). */
    public MongoClient client() {
        return client;
    }

    /** Closes the client; the core over this engine is closed first. */
    @Override
    public void close() {
        work.close();
    }
}
