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
import dev.stillpoint.core.CoreSettings;
import dev.stillpoint.core.StorageCore;
import dev.stillpoint.core.ControlPlanePorts;
import dev.stillpoint.core.PassChore;
import dev.stillpoint.ports.in.SnapshotEngine;
import dev.stillpoint.ports.in.TableOperations;
import dev.stillpoint.core.snapshot.PermitLedger;
import java.time.Duration;
import java.util.Date;
import java.util.List;
import org.bson.BsonDateTime;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonValue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MongoDB adapter's parts, wired: the client, the catalog's schema steps, the control-plane
 * poller (it activates CREATING tables; nothing on MongoDB is ever DELETING), table operations and
 * the shared snapshot engine over {@link MongoSnapshots}.
 */
public final class MongoEngine implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(MongoEngine.class);

    /** Catalog schema versions this adapter knows; a catalog that has applied a later one is refused. */
    static final int SCHEMA_VERSION = 2;

    private final MongoClient client;
    private final Transactions work;
    private final MongoCatalog catalog;
    private final MongoTables storage;
    private final StorageCore core;
    private final OrphanSweep sweep;

    private MongoEngine(MongoConfig config, MongoClient client) {
        this.client = client;
        // A ping selects a server, so the driver's view of the deployment is known afterwards.
        client.getDatabase("admin").runCommand(new BsonDocument("ping", new BsonInt32(1)));
        this.work = new Transactions(client, client.getDatabase(config.catalogDatabase()),
                client.getDatabase(config.dataDatabase()),
                Transactions.supportsTransactions(client.getClusterDescription().getType()));
        if (!work.transactional()) {
            LOG.warn("MongoDB at {} is not a replica set member: item writes run without transactions, and"
                    + " snapshots are refused (Unsupported)", config.redactedConnectionString());
        }
        applySchema();
        this.catalog = new MongoCatalog(work, config.time(), config.controlPlaneDelay());
        this.sweep = new OrphanSweep(work, catalog);
        this.storage = new MongoTables(work, catalog);
        CoreSettings settings = config.coreSettings();
        this.core = new StorageCore(settings, "stillpoint-mongo-control-plane");
        // Zero delay: MongoDB never schedules a drop for later, whatever the control-plane delay, so
        // DeleteTable always takes the synchronous path and the pass only ever activates CREATING tables.
        // Every pass, the startup-recovery pass first, sweeps collections left without their table.
        core.assemble(new ControlPlanePorts(catalog, new InlineDrops(catalog, work), () -> Duration.ZERO,
                storage, storage, storage, List.of(new PassChore("orphan sweep", sweep::run)),
                settings.restoreIdleLimit()), new MongoSnapshots(work, catalog),
                PermitPool.withCapacity(config.snapshotPermits()));
        core.start();
    }

    /** Connects, applies the catalog's schema steps and starts the poller. */
    public static MongoEngine open(MongoConfig config) {
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
     * Versioned schema steps, recorded in {@code sp_schema} ({@code _id} the version). Step 1 creates the
     * catalog collections and their indexes; step 2 the register of deleted tables the orphan sweep reads [O1].
     * Creating an existing index is a no-op, so a restart is safe.
     */
    private void applySchema() {
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

    /** Create, describe, list, add a GSI, delete (inline, never DELETING); put, get, delete items. */
    public TableOperations tables() {
        return core.tables();
    }

    /** Restores into new tables [E4, E5]; a dead restore's table is removed by the control-plane pass. */
    public dev.stillpoint.ports.in.TableRestores restores() {
        return core.restores();
    }

    /** Consistent table snapshots in a snapshot session [M1-M4]. */
    public SnapshotEngine snapshots() {
        return core.snapshots();
    }

    /** The snapshot permits [D7]. */
    public PermitLedger snapshotPermits() {
        return core.permits();
    }

    /** Whether item writes run in transactions (replica set or mongos). */
    public boolean transactional() {
        return work.transactional();
    }

    /** Records a restore on the table, as a restore would; its description then carries the summary [S2]. */
    public void recordRestore(String accountId, String tableName, RestoreSummary summary) {
        catalog.writeRestore(accountId, tableName, summary);
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

    @Override
    public void close() {
        core.close();
        client.close();
    }

}
