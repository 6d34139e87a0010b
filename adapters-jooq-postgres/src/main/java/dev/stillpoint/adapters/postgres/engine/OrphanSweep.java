package dev.stillpoint.adapters.postgres.engine;

import static dev.stillpoint.adapters.postgres.generated.Tables.SP_TABLES;

import dev.stillpoint.adapters.postgres.storage.DataRelation;
import dev.stillpoint.ports.out.TimeSource;
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
 * catalog registered as its own in the data database ({@link DataRelations}, O1) whose table this catalog
 * began to create ({@link PendingCreations}) and has no catalog row. A relation of any other origin (another
 * deployment's, a user's, a copy of this catalog's, one made before the register and listed by no row) is
 * never touched, whatever its name. It lists the relations and then the begun creations (a creation is
 * recorded before its relations exist), then takes {@link #SWEEP_LOCK} exclusively on the catalog database
 * before reading the rows: every CreateTable holds it shared from the start of its catalog transaction to
 * its end, and commits its relations before its row, so a relation listed before the lock either has its
 * row visible once the lock is granted or never will.
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

    /**
     * How old a begun creation with neither row nor relation must be before the sweep forgets it (one whose
     * CreateTable failed before its data commit): far beyond any CreateTable still in flight.
     */
    static final Duration STALE_CREATION = Duration.ofMinutes(10);

    private final Pools pools;
    private final String catalogId;
    private final TimeSource time;

    /** The sweep of the catalog whose identity is {@code catalogId} ({@link Deployment#catalogId()}). */
    public OrphanSweep(Pools pools, String catalogId, TimeSource time) {
        this.pools = pools;
        this.catalogId = catalogId;
        this.time = time;
    }

    /** Takes the lock a CreateTable holds until its catalog transaction ends, so no sweep reads its rows meanwhile. */
    static void holdOffSweep(Connection catalogConnection) throws SQLException {
        TransactionStatements.exec(catalogConnection, "SELECT pg_advisory_xact_lock_shared(" + SWEEP_LOCK + ")");
    }

    /**
     * Drops every data relation this catalog registered whose table it began to create and has no catalog
     * row; returns their names [L2, O1]. A relation it cannot drop now (held, or a view depends on it) is
     * logged and left to the next pass. Any other relation is never touched.
     */
    public List<String> run() {
        String doing = "sweeping data relations without a catalog row";
        List<String> dropped = new ArrayList<>();
        try (Connection catalogConnection = pools.catalog()) {
            Connection data = pools.shared() ? catalogConnection : pools.data();
            try {
                Map<String, String> registered = new LinkedHashMap<>();
                for (String name : DataRelations.registeredTo(Transaction.dsl(data), catalogId)) {
                    DataRelation.tableIdOf(name).ifPresent(id -> registered.put(name, id));
                }
                // Read after the listing: each listed relation's creation was recorded before it was made.
                Map<String, Long> begun = PendingCreations.all(Transaction.dsl(catalogConnection));
                if (begun.isEmpty()) {
                    return dropped;
                }
                Set<String> known = rowsOf(catalogConnection, begun.keySet());
                Set<String> kept = new HashSet<>();
                for (Map.Entry<String, String> e : registered.entrySet()) {
                    if (begun.containsKey(e.getValue()) && !known.contains(e.getValue())) {
                        if (dropOrphan(data, e.getKey())) {
                            dropped.add(e.getKey());
                        } else {
                            kept.add(e.getValue());
                        }
                    }
                }
                forget(catalogConnection, finished(begun, known, new HashSet<>(registered.values()), kept));
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

    /** Which of {@code tableIds} have a catalog row, read once every CreateTable in flight has ended. */
    private static Set<String> rowsOf(Connection catalogConnection, Set<String> tableIds) throws SQLException {
        TransactionStatements.begin(catalogConnection);
        try {
            TransactionStatements.exec(catalogConnection, "SET LOCAL lock_timeout = " + SWEEP_WAIT.toMillis());
            // Waits for every CreateTable in flight: its relations may be committed before its row.
            TransactionStatements.exec(catalogConnection, "SELECT pg_advisory_xact_lock(" + SWEEP_LOCK + ")");
            Set<String> known = new HashSet<>(Transaction.dsl(catalogConnection).select(SP_TABLES.TABLE_ID)
                    .from(SP_TABLES).where(SP_TABLES.TABLE_ID.in(tableIds)).fetch(SP_TABLES.TABLE_ID));
            TransactionStatements.commit(catalogConnection);
            return known;
        } finally {
            TransactionStatements.rollbackQuietly(catalogConnection);
        }
    }

    /**
     * The begun creations this pass ends: those with a row, those whose every relation it dropped, and stale
     * ones with neither row nor relation. One with a relation still there stays, so the next pass drops it.
     */
    private Set<String> finished(Map<String, Long> begun, Set<String> known, Set<String> withRelations,
                                 Set<String> kept) {
        long staleBefore = time.now().toEpochMilli() - STALE_CREATION.toMillis();
        Set<String> done = new HashSet<>();
        begun.forEach((id, startedAt) -> {
            boolean ended = known.contains(id) || (withRelations.contains(id) ? !kept.contains(id) : startedAt < staleBefore);
            if (ended) {
                done.add(id);
            }
        });
        return done;
    }

    private static void forget(Connection catalogConnection, Set<String> tableIds) {
        if (!tableIds.isEmpty()) {
            PendingCreations.forget(Transaction.dsl(catalogConnection), tableIds);
        }
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
