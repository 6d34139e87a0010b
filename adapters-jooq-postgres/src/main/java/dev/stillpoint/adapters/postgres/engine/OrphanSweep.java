package dev.stillpoint.adapters.postgres.engine;

import static dev.stillpoint.adapters.postgres.generated.Tables.SP_TABLES;

import dev.stillpoint.adapters.postgres.storage.DataRelation;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The orphan sweep [L2], run by every poller pass and so at startup: it drops data relations that this
 * catalog registered as its own in the data database ({@link DataRelations}, O1) whose table id has
 * no catalog row. A relation of any other origin (another deployment's, a user's, one made before the
 * register and listed by no row) is never touched, whatever its name. It lists the relations, then takes
 * {@link #SWEEP_LOCK} exclusively on the catalog database before reading the rows: every CreateTable
 * holds it shared from the start of its catalog transaction to its end, and commits its relations
 * before its row, so a relation listed before the lock either has its row visible once the lock is
 * granted or never will.
 */
public final class OrphanSweep {

    private static final Logger LOG = LoggerFactory.getLogger(OrphanSweep.class);

    /**
     * The advisory lock (catalog database) between CreateTable, which holds it shared, and the
     * orphan sweep, which takes it exclusively before reading catalog rows [L2].
     */
    static final long SWEEP_LOCK = 0x73702d6f7270686eL;

    /** How long the sweep waits for in-flight CreateTables, and each of its DROPs for its lock. */
    private static final Duration SWEEP_WAIT = Duration.ofSeconds(1);

    private final Pools pools;
    private final String catalogId;

    /** The sweep of the catalog whose identity is {@code catalogId} ({@link Deployment#catalogId()}). */
    public OrphanSweep(Pools pools, String catalogId) {
        this.pools = pools;
        this.catalogId = catalogId;
    }

    /** Takes the lock a CreateTable holds until its catalog transaction ends, so no sweep reads its rows meanwhile. */
    static void holdOffSweep(Connection catalogConnection) throws SQLException {
        TransactionStatements.exec(catalogConnection, "SELECT pg_advisory_xact_lock_shared(" + SWEEP_LOCK + ")");
    }

    /**
     * Drops every data relation this catalog registered whose table id has no catalog row; returns
     * their names [L2, O1]. A relation it cannot drop now (held, or a view depends on it) is logged and
     * left to the next pass. A relation this catalog did not register is never touched.
     */
    public List<String> run() {
        String doing = "sweeping data relations without a catalog row";
        List<String> dropped = new ArrayList<>();
        try (Connection catalogConnection = pools.catalog()) {
            Connection data = pools.shared() ? catalogConnection : pools.data();
            try {
                Map<String, String> candidates = new LinkedHashMap<>();
                for (String name : DataRelations.registeredTo(Transaction.dsl(data), catalogId)) {
                    DataRelation.tableIdOf(name).ifPresent(id -> candidates.put(name, id));
                }
                if (candidates.isEmpty()) {
                    return dropped;
                }
                Set<String> known = new HashSet<>();
                TransactionStatements.begin(catalogConnection);
                try {
                    TransactionStatements.exec(catalogConnection, "SET LOCAL lock_timeout = " + SWEEP_WAIT.toMillis());
                    // Waits for every CreateTable in flight: its relations may be committed before its row.
                    TransactionStatements.exec(catalogConnection, "SELECT pg_advisory_xact_lock(" + SWEEP_LOCK + ")");
                    known.addAll(Transaction.dsl(catalogConnection).select(SP_TABLES.TABLE_ID).from(SP_TABLES)
                            .where(SP_TABLES.TABLE_ID.in(new HashSet<>(candidates.values())))
                            .fetch(SP_TABLES.TABLE_ID));
                    TransactionStatements.commit(catalogConnection);
                } finally {
                    TransactionStatements.rollbackQuietly(catalogConnection);
                }
                for (Map.Entry<String, String> e : candidates.entrySet()) {
                    if (!known.contains(e.getValue()) && dropOrphan(data, e.getKey())) {
                        dropped.add(e.getKey());
                    }
                }
            } finally {
                if (data != catalogConnection) {
                    TransactionStatements.release(data);
                }
            }
        } catch (SQLException | RuntimeException e) {
            throw PgFailures.map(doing, e);
        }
        if (!dropped.isEmpty()) {
            LOG.warn("dropped data relations without a catalog row: {}", dropped);
        }
        return dropped;
    }

    private static boolean dropOrphan(Connection data, String name) {
        try {
            TransactionStatements.begin(data);
            try {
                TransactionStatements.exec(data, "SET LOCAL lock_timeout = " + SWEEP_WAIT.toMillis());
                DataRelations.drop(Transaction.dsl(data), DataRelation.fromCatalog(name));
                TransactionStatements.commit(data);
                return true;
            } finally {
                TransactionStatements.rollbackQuietly(data);
            }
        } catch (SQLException | RuntimeException e) {
            LOG.warn("could not drop data relation {} (it has no catalog row); the next pass retries: {}", name,
                    PgFailures.describe(e));
            return false;
        }
    }
}
