package dev.stillpoint.cli;

import dev.stillpoint.adapters.cassandra.CassandraConfig;
import dev.stillpoint.adapters.cassandra.CassandraStorage;
import dev.stillpoint.adapters.mongo.MongoConfig;
import dev.stillpoint.adapters.mongo.MongoStorage;
import dev.stillpoint.adapters.postgres.PostgresConfig;
import dev.stillpoint.adapters.postgres.PostgresStorage;
import dev.stillpoint.adapters.sqlite.SqliteConfig;
import dev.stillpoint.ports.out.StorageEvents;
import dev.stillpoint.adapters.sqlite.SqliteStorage;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.ports.in.Storage;
import dev.stillpoint.ports.in.StorageCapabilities;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Option;

/**
 * The one backend a command works on: exactly one of {@code --sqlite FILE}, {@code --postgres JDBC_URL},
 * {@code --mongodb URI}, {@code --cassandra CONTACT_POINT} (a picocli argument group). Credentials a URL
 * carries are never printed: {@link #shown()} masks them and {@link #scrub} removes them from any text
 * (an error from a driver may quote the URL).
 */
final class Backend {

    /** The kinds of backend, for what differs between them (Cassandra has no snapshots [C1]). */
    enum Kind { SQLITE, POSTGRES, MONGODB, CASSANDRA }

    @Option(names = "--sqlite", paramLabel = "FILE", description = "A SQLite database file.")
    Path sqlite;

    @Option(names = "--postgres", paramLabel = "JDBC_URL",
            description = "A PostgreSQL database (jdbc:postgresql://host:port/db[?user=..&password=..]); with"
                    + " --data-url the catalog's database of the separate layout.")
    String postgres;

    @Option(names = "--mongodb", paramLabel = "URI", description = "A MongoDB replica set (mongodb://...).")
    String mongodb;

    @Option(names = "--cassandra", paramLabel = "CONTACT_POINT", description = "A Cassandra node, host:port.")
    String cassandra;

    private static final Pattern URL_PASSWORD = Pattern.compile("[?&]password=", Pattern.CASE_INSENSITIVE);
    private static final Pattern SECRET_PARAM = Pattern.compile("(?i)([?&;](?:password|pass|pwd|sslpassword)=)([^&;]*)");
    private static final Pattern USER_INFO = Pattern.compile("(//[^/@:]*:)([^/@]*)(@)");

    Kind kind() {
        return sqlite != null ? Kind.SQLITE : postgres != null ? Kind.POSTGRES : mongodb != null ? Kind.MONGODB
                : Kind.CASSANDRA;
    }

    /** What the backend offers, asked of its adapter before anything is opened. */
    StorageCapabilities capabilities() {
        return switch (kind()) {
            case SQLITE -> SqliteStorage.CAPABILITIES;
            case POSTGRES -> PostgresStorage.CAPABILITIES;
            case MONGODB -> MongoStorage.CAPABILITIES;
            case CASSANDRA -> CassandraStorage.CAPABILITIES;
        };
    }

    /** The backend as a user may read it: the file, or the URL with every password masked. */
    String shown(String dataUrl) {
        return switch (kind()) {
            case SQLITE -> sqlite.toString();
            case POSTGRES -> "PostgreSQL " + mask(postgres) + (dataUrl == null ? "" : " (data " + mask(dataUrl) + ")");
            case MONGODB -> "MongoDB " + mask(mongodb);
            case CASSANDRA -> "Cassandra " + cassandra;
        };
    }

    /** {@code url} with the values of password parameters and the password of user info replaced by ***. */
    static String mask(String url) {
        if (url == null) {
            return null;
        }
        String masked = SECRET_PARAM.matcher(url).replaceAll("$1***");
        return USER_INFO.matcher(masked).replaceAll("$1***$3");
    }

    /** {@code text} with every password the URLs carry (as written and URL-decoded) replaced by ***. */
    String scrub(String text, String dataUrl) {
        if (text == null) {
            return null;
        }
        String result = text;
        for (String url : new String[] {postgres, dataUrl, mongodb}) {
            if (url == null) {
                continue;
            }
            result = result.replace(url, mask(url));
            for (String secret : secrets(url)) {
                result = result.replace(secret, "***");
            }
        }
        return result;
    }

    private static List<String> secrets(String url) {
        List<String> found = new ArrayList<>();
        for (Pattern p : new Pattern[] {SECRET_PARAM, USER_INFO}) {
            Matcher m = p.matcher(url);
            while (m.find()) {
                String secret = m.group(2);
                if (!secret.isEmpty()) {
                    found.add(secret);
                    try {
                        found.add(URLDecoder.decode(secret, StandardCharsets.UTF_8));
                    } catch (IllegalArgumentException ignored) {
                        // Not URL-encoded text: the raw form is enough.
                    }
                }
            }
        }
        found.sort((a, b) -> b.length() - a.length());
        return found;
    }

    /**
     * Opens the backend. A SQLite file is checked first (a command that reads never creates one);
     * {@code readOnly} opens it, or a PostgreSQL catalog, read-only [L4]. A server that cannot be reached
     * ends with exit 4.
     */
    Storage open(boolean readOnly, boolean createsDatabase, String dataUrl, StorageEvents events) {
        if (dataUrl != null && kind() != Kind.POSTGRES) {
            throw new CliFailure(ExitCodes.USAGE, "--data-url goes with --postgres only");
        }
        try {
            return switch (kind()) {
                case SQLITE -> openSqlite(readOnly, createsDatabase, events);
                case POSTGRES -> openPostgres(readOnly, (dataUrl == null
                        ? PostgresConfig.shared(database(postgres))
                        : PostgresConfig.separate(database(postgres), database(dataUrl))).withEvents(events));
                case MONGODB -> MongoStorage.open(MongoConfig.of(mongodb).withEvents(events));
                // Cassandra's adapter takes no StorageEvents: --metrics prints its meters at zero.
                case CASSANDRA -> CassandraStorage.open(CassandraConfig.parse(cassandra));
            };
        } catch (StorageException e) {
            if (kind() == Kind.SQLITE) {
                throw e;
            }
            throw new CliFailure(ExitCodes.DATABASE_FILE, "cannot open " + shown(dataUrl) + ": "
                    + scrub(refusal(e), dataUrl), e);
        } catch (IllegalArgumentException e) {
            // A URI the driver cannot parse: its message may quote the URI, so it is scrubbed.
            throw new CliFailure(ExitCodes.USAGE, "cannot open " + shown(dataUrl) + ": " + scrub(e.getMessage(), dataUrl), e);
        }
    }

    /**
     * An opening's refusal as printed; a read-only opening refused because the database is older than this
     * build also names the command that migrates it.
     */
    private static String refusal(StorageException e) {
        String migrate = e.getMessage() != null && e.getMessage().contains("never migrates")
                ? " (`stillpoint migrate` with the same database options does that)" : "";
        return e.getMessage() + migrate + " [" + e.reason().apiErrorName() + "]";
    }

    private static PostgresStorage openPostgres(boolean readOnly, PostgresConfig config) {
        return readOnly ? PostgresStorage.openReadOnly(config) : PostgresStorage.open(config);
    }

    private static PostgresConfig.Database database(String url) {
        // User and password come from the URL's parameters, as pgjdbc reads them; a URL without a password
        // takes PGPASSWORD, as psql does, so none need sit in a command line that ps shows (pgjdbc itself
        // reads PGPASSFILE and ~/.pgpass when neither gives one) [O3].
        String password = URL_PASSWORD.matcher(url).find() ? null : System.getenv("PGPASSWORD");
        return new PostgresConfig.Database(url, null, password == null || password.isEmpty() ? null : password);
    }


    /**
     * Snapshot permits a read-only SQLite file is opened with: 1, or N for {@code export -j N}, whose N segments
     * each hold one [B2, B3] (they share one read connection; the pool is twice the permits, as the config asks).
     */
    int readOnlySnapshots = 1;

    private SqliteStorage openSqlite(boolean readOnly, boolean createsDatabase, StorageEvents events) {
        if (readOnly) {
            DatabaseFile.requireExisting(sqlite);
            try {
                return SqliteStorage.openReadOnly(SqliteConfig.file(sqlite)
                        .withPool(2 * readOnlySnapshots, readOnlySnapshots).withEvents(events));
            } catch (StorageException e) {
                // The message names the file.
                throw new CliFailure(ExitCodes.DATABASE_FILE, refusal(e), e);
            }
        }
        if (createsDatabase) {
            DatabaseFile.requireExistingOrCreatable(sqlite);
        } else {
            DatabaseFile.requireExisting(sqlite);
        }
        return DatabaseFile.open(sqlite, SqliteConfig.file(sqlite).withEvents(events), createsDatabase);
    }
}
