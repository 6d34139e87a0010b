package dev.stillpoint.adapters.cassandra;

import dev.stillpoint.core.BackendConfig;
import dev.stillpoint.core.CoreSettings;
import dev.stillpoint.domain.error.StorageException;
import java.time.Duration;
import java.util.regex.Pattern;

/**
 * How to reach a Cassandra cluster and where Stillpoint keeps its keyspaces there.
 *
 * @param host               a contact point's host name or address
 * @param port               its native-protocol (CQL) port
 * @param localDatacenter    the driver's local datacenter; also the datacenter the keyspaces replicate to
 * @param keyspacePrefix     the prefix of every keyspace Stillpoint creates: {@code <prefix>_catalog} and
 *                           {@code <prefix>_a_<account hash>}; 1-24 characters of {@code [a-z0-9_]}, a letter first
 * @param replicationFactor  replicas per datacenter of every keyspace Stillpoint creates
 * @param requestTimeout     the driver's timeout for one request (reads, writes, lightweight transactions)
 * @param schemaTimeout      the timeout of one schema change, and of the wait for schema agreement after it
 * @param staleCreatingAfter how long a table may stay CREATING before DeleteTable may remove it (its creator
 *                           died between the catalog insert and the activation); longer than any CreateTable
 * @param coreSettings       the settings every backend shares ({@link BackendConfig}), read by the core: here
 *                           the clock (creation times, and the write timestamps of index entries), the restore
 *                           idle limit [E5] and the events [X1]; no snapshots [C1], so the page budget, observer
 *                           and snapshot idle limit are unused
 */
public record CassandraConfig(String host, int port, String localDatacenter, String keyspacePrefix,
                              int replicationFactor, Duration requestTimeout, Duration schemaTimeout,
                              Duration staleCreatingAfter, CoreSettings coreSettings)
        implements BackendConfig<CassandraConfig> {

    /** The longest prefix: {@code <prefix>_a_} plus a 20-digit hash stays within Cassandra's 48 characters. */
    public static final int MAX_PREFIX_LENGTH = 24;

    private static final Pattern PREFIX = Pattern.compile("[a-z][a-z0-9_]{0," + (MAX_PREFIX_LENGTH - 1) + "}");
    private static final Pattern DATACENTER = Pattern.compile("[A-Za-z0-9_.-]{1,128}");

    public CassandraConfig {
        if (host == null || host.isBlank()) {
            throw StorageException.validation("Cassandra contact host is required, got: " + host);
        }
        if (port < 1 || port > 65_535) {
            throw StorageException.validation("Cassandra port must be 1-65535, got " + port);
        }
        if (localDatacenter == null || !DATACENTER.matcher(localDatacenter).matches()) {
            throw StorageException.validation("local datacenter must be 1-128 characters of [A-Za-z0-9_.-], got: "
                    + localDatacenter);
        }
        if (keyspacePrefix == null || !PREFIX.matcher(keyspacePrefix).matches()) {
            throw StorageException.validation("keyspace prefix must be 1-" + MAX_PREFIX_LENGTH
                    + " characters of [a-z0-9_] starting with a letter, got: " + keyspacePrefix);
        }
        if (replicationFactor < 1) {
            throw StorageException.validation("replication factor must be at least 1, got " + replicationFactor);
        }
        requirePositive(requestTimeout, "request timeout");
        requirePositive(schemaTimeout, "schema timeout");
        requirePositive(staleCreatingAfter, "stale CREATING age");
        coreSettings = coreSettings == null ? CoreSettings.DEFAULT : coreSettings;
    }

    private static void requirePositive(Duration d, String what) {
        if (d == null || d.isZero() || d.isNegative()) {
            throw StorageException.validation(what + " must be positive, got " + d);
        }
    }

    /**
     * A cluster reached at {@code host:port}: local datacenter {@code datacenter1}, prefix
     * {@code stillpoint}, replication factor 1, 10 s requests, 60 s schema changes, a CREATING table
     * stale after 5 minutes.
     */
    public static CassandraConfig of(String host, int port) {
        return new CassandraConfig(host, port, "datacenter1", "stillpoint", 1, Duration.ofSeconds(10),
                Duration.ofSeconds(60), Duration.ofMinutes(5), CoreSettings.DEFAULT);
    }

    /** {@link #of} from {@code host:port} ({@code [v6 address]:port} for IPv6). */
    public static CassandraConfig parse(String hostAndPort) {
        if (hostAndPort == null) {
            throw StorageException.validation("Cassandra contact must be host:port, got null");
        }
        String text = hostAndPort.trim();
        int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw StorageException.validation("Cassandra contact must be host:port, got: " + hostAndPort);
        }
        String host = text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(text.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw StorageException.validation("Cassandra contact must be host:port, got: " + hostAndPort);
        }
        return of(host, port);
    }

    /** The keyspace of the catalog: {@code <prefix>_catalog}. */
    public String catalogKeyspace() {
        return keyspacePrefix + "_catalog";
    }

    public CassandraConfig withLocalDatacenter(String dc) {
        return new CassandraConfig(host, port, dc, keyspacePrefix, replicationFactor, requestTimeout, schemaTimeout,
                staleCreatingAfter, coreSettings);
    }

    public CassandraConfig withKeyspacePrefix(String prefix) {
        return new CassandraConfig(host, port, localDatacenter, prefix, replicationFactor, requestTimeout,
                schemaTimeout, staleCreatingAfter, coreSettings);
    }

    public CassandraConfig withReplicationFactor(int rf) {
        return new CassandraConfig(host, port, localDatacenter, keyspacePrefix, rf, requestTimeout, schemaTimeout,
                staleCreatingAfter, coreSettings);
    }

    public CassandraConfig withRequestTimeout(Duration timeout) {
        return new CassandraConfig(host, port, localDatacenter, keyspacePrefix, replicationFactor, timeout,
                schemaTimeout, staleCreatingAfter, coreSettings);
    }

    public CassandraConfig withSchemaTimeout(Duration timeout) {
        return new CassandraConfig(host, port, localDatacenter, keyspacePrefix, replicationFactor, requestTimeout,
                timeout, staleCreatingAfter, coreSettings);
    }

    public CassandraConfig withStaleCreatingAfter(Duration age) {
        return new CassandraConfig(host, port, localDatacenter, keyspacePrefix, replicationFactor, requestTimeout,
                schemaTimeout, age, coreSettings);
    }

    @Override
    public CassandraConfig withCoreSettings(CoreSettings settings) {
        return new CassandraConfig(host, port, localDatacenter, keyspacePrefix, replicationFactor, requestTimeout,
                schemaTimeout, staleCreatingAfter, settings);
    }
}
