package dev.stillpoint.adapters.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import dev.stillpoint.core.CatalogClock;
import dev.stillpoint.core.InlineCorePorts;
import dev.stillpoint.core.InlineStorageCore;
import dev.stillpoint.core.InlineStorageFacade;
import dev.stillpoint.ports.in.StorageCapabilities;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Stillpoint on Cassandra: one object that connects (DataStax java-driver-core), applies the
 * catalog's schema steps, and offers the driving ports. There is no control-plane poller: a table
 * is ACTIVE when CreateTable returns and gone when DeleteTable returns [C2], so nothing is ever due
 * later, and so none of the core's {@code ControlPlane}. Snapshots are refused [C1], so there are no
 * snapshot permits either. The driving ports are the core's ({@link InlineStorageFacade}). Close it to
 * close the session.
 */
public final class CassandraStorage extends InlineStorageFacade {

    /** What this backend offers, known before anything is opened: Cassandra: no consistent table snapshots [C1] ({@link CassandraSnapshots#WHY}). */
    public static final StorageCapabilities CAPABILITIES = CassandraSnapshots.CAPABILITIES;

    private final CassandraConfig config;
    private final Cql cql;
    private final CatalogStore catalog;
    private final CassandraItems items;

    private CassandraStorage(CassandraConfig config, CqlSession session) {
        super(CAPABILITIES, new InlineStorageCore(config.coreSettings(), "stillpoint-cassandra-statistics"),
                session::close);
        this.config = config;
        this.cql = new Cql(session, config.schemaTimeout());
        CatalogSchema.apply(cql, config);
        this.catalog = new CatalogStore(cql, config);
        IndexEntries entries = new IndexEntries(cql, catalog);
        CassandraTables lifecycle = new CassandraTables(cql, catalog, entries, config);
        this.items = new CassandraItems(cql, catalog, entries, config);
        // No ControlPlane: CreateTable is the adapter's own LWT (ACTIVE at once) and DeleteTable drops
        // inline [C2]; the core wires the rest, with a poller for the recount and dead restores.
        core().assemble(new InlineCorePorts(lifecycle, lifecycle, items,
                new InlineDrops(cql, catalog, config), new CassandraRestores(catalog, lifecycle, config), lifecycle)
                .withBulkLoads(new CassandraBulkLoads(cql, catalog, entries, config)));
        core().start();
    }

    /**
     * Connects to the cluster, creates the catalog keyspace if needed and applies its schema steps.
     * A cluster that cannot be reached is Transient; a catalog newer than this adapter is Internal.
     */
    public static CassandraStorage open(CassandraConfig config) {
        CqlSession session = connect(config);
        try {
            return new CassandraStorage(byCatalogClock(config, session), session);
        } catch (RuntimeException e) {
            session.close();
            throw e;
        }
    }

    /**
     * {@code config} telling the time by the cluster's clock ({@link CatalogClock}), read from the node the
     * session asks: clients on several hosts then write and judge restore stamps [E5] and item revisions alike.
     */
    private static CassandraConfig byCatalogClock(CassandraConfig config, CqlSession session) {
        Instant before = config.time().now();
        Instant server;
        try {
            server = session.execute("SELECT toTimestamp(now()) AS now FROM system.local").one().getInstant("now");
        } catch (RuntimeException e) {
            throw DriverFailures.map("reading the time of Cassandra at " + config.host() + ":" + config.port(), e);
        }
        CatalogClock clock = CatalogClock.measured(config.time(), before, server, config.time().now());
        return config.withCoreSettings(config.coreSettings().withTime(clock));
    }

    private static CqlSession connect(CassandraConfig config) {
        DriverConfigLoader loader = DriverConfigLoader.programmaticBuilder()
                .withString(DefaultDriverOption.SESSION_NAME, "stillpoint")
                .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, config.requestTimeout())
                .withString(DefaultDriverOption.REQUEST_CONSISTENCY, "LOCAL_QUORUM")
                .withString(DefaultDriverOption.REQUEST_SERIAL_CONSISTENCY, "LOCAL_SERIAL")
                .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, config.requestTimeout())
                .withDuration(DefaultDriverOption.CONNECTION_SET_KEYSPACE_TIMEOUT, config.requestTimeout())
                .withDuration(DefaultDriverOption.CONTROL_CONNECTION_TIMEOUT, config.requestTimeout())
                .withDuration(DefaultDriverOption.CONTROL_CONNECTION_AGREEMENT_TIMEOUT, config.schemaTimeout())
                .withDuration(DefaultDriverOption.METADATA_SCHEMA_REQUEST_TIMEOUT, config.requestTimeout())
                // The driver answers a schema change only after refreshing its schema metadata, which it
                // debounces (1 s by default): that made every CREATE/DROP TABLE take a second more. Refresh
                // at once, and only this engine's keyspaces (token-aware routing needs their replication).
                .withDuration(DefaultDriverOption.METADATA_SCHEMA_WINDOW, Duration.ofMillis(10))
                .withStringList(DefaultDriverOption.METADATA_SCHEMA_REFRESHED_KEYSPACES,
                        List.of("/^" + config.keyspacePrefix() + "_.*/"))
                .build();
        try {
            return CqlSession.builder()
                    .addContactPoint(new InetSocketAddress(config.host(), config.port()))
                    .withLocalDatacenter(config.localDatacenter())
                    .withConfigLoader(loader)
                    .build();
        } catch (RuntimeException e) {
            throw DriverFailures.map("connecting to Cassandra at " + config.host() + ":" + config.port(), e);
        }
    }

    /** The configuration this engine was opened with, its clock corrected to the cluster's. */
    public CassandraConfig config() {
        return config;
    }

    // ------------------------------------------------------------------------------------------
    // For the tests in this package: the session, the catalog and write hooks.

    Cql cql() {
        return cql;
    }

    CatalogStore catalog() {
        return catalog;
    }

    void hooks(WriteHooks hooks) {
        items.hooks(hooks);
    }
}
