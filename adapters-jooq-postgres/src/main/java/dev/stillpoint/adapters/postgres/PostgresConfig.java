package dev.stillpoint.adapters.postgres;

import dev.stillpoint.core.BackendConfig;
import dev.stillpoint.core.CoreSettings;
import dev.stillpoint.domain.error.StorageException;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * How to open a PostgreSQL engine, in one of two layouts:
 * <ul>
 *   <li>shared: catalog and data relations in one database, one connection pool of {@code poolSize};</li>
 *   <li>separate: the catalog in {@code catalog}, the data relations in {@code data}, a pool each
 *       ({@code catalogPoolSize} and {@code poolSize}).</li>
 * </ul>
 * Open snapshots are bounded at half of {@code poolSize}, the pool their items come from [D7]; the
 * other half stays free for requests. Beside its own settings it holds those every backend shares
 * ({@link BackendConfig}).
 *
 * @param catalog           the catalog database (the one database of the shared layout)
 * @param data              the data database of the separate layout; empty for the shared layout
 * @param poolSize          connections of the data pool (the one pool of the shared layout)
 * @param catalogPoolSize   connections of the catalog pool (separate layout only)
 * @param connectionTimeout how long a call waits for a pooled connection, and how long opening a new
 *                          connection may take (pgjdbc's connect and login timeouts), before it fails
 *                          Transient saying the database is unreachable [L3]; default 5 s, from 250 ms
 *                          to 10 minutes
 * @param controlPlaneDelay overrides the catalog's {@code control_plane_delay_ms} when present
 * @param copyHook           a test hook run while a restore's COPY is open, its rows sent but the COPY not
 *                           ended (a test kills the process there [E5, B1]); may block; does nothing by default
 * @param coreSettings      the settings every backend shares, read by the core
 */
public record PostgresConfig(Database catalog, Optional<Database> data, int poolSize, int catalogPoolSize,
                             Duration connectionTimeout, Optional<Duration> controlPlaneDelay, Runnable copyHook,
                             CoreSettings coreSettings) implements BackendConfig<PostgresConfig> {

    /** The default {@link #connectionTimeout()}: a few seconds, so a call fails fast while the database is down [L3]. */
    public static final Duration DEFAULT_CONNECTION_TIMEOUT = Duration.ofSeconds(5);

    private static final Runnable NO_HOOK = () -> { };

    /** User information before the host of a URL: {@code //user@} or {@code //user:password@}. */
    private static final Pattern USER_BEFORE_HOST = Pattern.compile("//[^/?#]*@");

    /** Where one database is. */
    public record Database(String jdbcUrl, String user, String password) {
        public Database {
            if (jdbcUrl == null || !jdbcUrl.startsWith("jdbc:postgresql:")) {
                throw StorageException.validation("a PostgreSQL JDBC URL starts with jdbc:postgresql:, got "
                        + (jdbcUrl == null ? "none" : withoutSecrets(jdbcUrl)));
            }
            // pgjdbc reads no user:password@ (pgjdbc issues 1346, 1474: "will not fix"); it takes the text as a
            // host name and fails Transient after the whole connection timeout, which a retry never mends.
            if (USER_BEFORE_HOST.matcher(jdbcUrl).find()) {
                throw StorageException.validation("a PostgreSQL JDBC URL names its user and password as options"
                        + " (?user=..&password=..) or settings, never before the host as libpq's URIs do; got "
                        + withoutSecrets(jdbcUrl));
            }
        }

        /** The URL without its options and user information (either may carry a password) and the user [L3]. */
        @Override
        public String toString() {
            return "Database[" + withoutSecrets(jdbcUrl) + ", user " + user + "]";
        }

        /** {@code url} with its options cut and anything before {@code @} in its host part masked: never a password. */
        private static String withoutSecrets(String url) {
            int q = url.indexOf('?');
            String bare = q < 0 ? url : url.substring(0, q) + "?...";
            return USER_BEFORE_HOST.matcher(bare).replaceFirst("//***@");
        }
    }

    public PostgresConfig {
        if (catalog == null) {
            throw StorageException.validation("the catalog database is required");
        }
        data = data == null ? Optional.empty() : data;
        if (poolSize < 2) {
            throw StorageException.validation("poolSize must be at least 2 (snapshots may hold half), got " + poolSize);
        }
        if (catalogPoolSize < 1) {
            throw StorageException.validation("catalogPoolSize must be at least 1, got " + catalogPoolSize);
        }
        if (connectionTimeout == null || connectionTimeout.toMillis() < 250 || connectionTimeout.toMinutes() > 10) {
            throw StorageException.validation("connectionTimeout must be from 250 ms to 10 minutes, got "
                    + (connectionTimeout == null ? "none" : connectionTimeout.toMillis() + " ms"));
        }
        copyHook = copyHook == null ? NO_HOOK : copyHook;
        coreSettings = coreSettings == null ? CoreSettings.DEFAULT : coreSettings;
        controlPlaneDelay.ifPresent(d -> {
            if (d.isNegative()) {
                throw StorageException.validation("control-plane delay must not be negative, got " + d);
            }
        });
    }

    /** Catalog and data in one database; a ten-connection pool and production defaults. */
    public static PostgresConfig shared(Database database) {
        return new PostgresConfig(database, Optional.empty(), 10, 10, DEFAULT_CONNECTION_TIMEOUT, Optional.empty(),
                NO_HOOK, CoreSettings.DEFAULT);
    }

    /** The catalog in one database, the data relations in another; ten connections each. */
    public static PostgresConfig separate(Database catalog, Database data) {
        return new PostgresConfig(catalog, Optional.of(data), 10, 10, DEFAULT_CONNECTION_TIMEOUT, Optional.empty(),
                NO_HOOK, CoreSettings.DEFAULT);
    }

    /** Whether catalog and data share one database (and one pool). */
    public boolean sharedLayout() {
        return data.isEmpty();
    }

    @Override
    public PostgresConfig withCoreSettings(CoreSettings settings) {
        return new PostgresConfig(catalog, data, poolSize, catalogPoolSize, connectionTimeout, controlPlaneDelay,
                copyHook, settings);
    }

    /**
     * The same config with other pool sizes.
     *
     * @param dataPool    connections of the data pool (the one pool of the shared layout); at least 2
     * @param catalogPool connections of the catalog pool (separate layout only)
     * @return the config with them
     */
    public PostgresConfig withPoolSizes(int dataPool, int catalogPool) {
        return new PostgresConfig(catalog, data, dataPool, catalogPool, connectionTimeout, controlPlaneDelay, copyHook,
                coreSettings);
    }

    /**
     * The same config with another connection timeout [L3].
     *
     * @param timeout from 250 ms to 10 minutes
     * @return the config with it
     */
    public PostgresConfig withConnectionTimeout(Duration timeout) {
        return new PostgresConfig(catalog, data, poolSize, catalogPoolSize, timeout, controlPlaneDelay, copyHook,
                coreSettings);
    }

    /**
     * The same config with the catalog's control-plane delay overridden [D4].
     *
     * @param delay how long a new table stays CREATING; not negative
     * @return the config with it
     */
    public PostgresConfig withControlPlaneDelay(Duration delay) {
        if (delay == null) {
            throw StorageException.validation("the control-plane delay must be given, got null");
        }
        return new PostgresConfig(catalog, data, poolSize, catalogPoolSize, connectionTimeout, Optional.of(delay),
                copyHook, coreSettings);
    }

    /**
     * The same config running {@code hook} while each COPY of a restore's bulk load is open, after its rows
     * were sent and before it ends: a test's pause, never a production setting.
     *
     * @param hook run on the restoring thread; may block
     * @return the config with it
     */
    public PostgresConfig withCopyHook(Runnable hook) {
        return new PostgresConfig(catalog, data, poolSize, catalogPoolSize, connectionTimeout, controlPlaneDelay, hook,
                coreSettings);
    }
}
