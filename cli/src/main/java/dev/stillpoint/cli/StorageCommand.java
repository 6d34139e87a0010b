package dev.stillpoint.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stillpoint.metrics.MeterReadings;
import dev.stillpoint.ports.in.Storage;
import dev.stillpoint.ports.out.StorageEvents;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

/**
 * A command on one backend: {@code (--sqlite FILE | --postgres JDBC_URL [--data-url JDBC_URL] |
 * --mongodb URI | --cassandra CONTACT_POINT) [--account ID]}. Every line it prints on stderr has the
 * URLs' passwords removed.
 */
abstract class StorageCommand extends CliCommand {

    /** The account every command uses unless {@code --account} names another. */
    static final String DEFAULT_ACCOUNT = "000000000000";

    /** The longest a write command waits for its opening's startup recovery before it goes on. */
    static final Duration RECOVERY_WAIT = Duration.ofSeconds(30);

    @ArgGroup(exclusive = true, multiplicity = "1", heading = "Backend (exactly one):%n")
    Backend backend = new Backend();

    @Option(names = "--data-url", paramLabel = "JDBC_URL",
            description = "With --postgres: the database of the data relations (separate layout); the --postgres"
                    + " URL then names the catalog's.")
    String dataUrl;

    @Option(names = "--account", paramLabel = "ID", defaultValue = DEFAULT_ACCOUNT,
            description = "Account id (default: ${DEFAULT-VALUE}).")
    String account;

    @Option(names = "--metrics",
            description = "At exit, print the storage's meters [X1] (metrics-micrometer's names, read from a"
                    + " SimpleMeterRegistry): one line each on stderr, 'stillpoint metrics: NAME{TAGS} STAT=VALUE ...';"
                    + " under --json a \"metrics\" array in the answer instead. Cassandra reports none.")
    boolean metrics;

    /** The meters behind --metrics, made when the storage opens (or at exit when it never opened). */
    private MeterReadings readings;

    /** What the storage and its exports tell: the meters under --metrics, else nothing. */
    StorageEvents events() {
        if (!metrics) {
            return StorageEvents.NONE;
        }
        if (readings == null) {
            readings = new MeterReadings();
        }
        return readings.events();
    }

    @Override
    void atExit() {
        if (!metrics) {
            return;
        }
        events();
        List<MeterReadings.Reading> all = readings.read();
        if (json.on) {
            ArrayNode array = answer.putArray("metrics");
            for (MeterReadings.Reading r : all) {
                ObjectNode n = array.addObject().put("name", r.name());
                ObjectNode tags = n.putObject("tags");
                r.tags().forEach(tags::put);
                ObjectNode values = n.putObject("values");
                r.values().forEach(values::put);
            }
            return;
        }
        PrintWriter err = err();
        for (MeterReadings.Reading r : all) {
            err.println("stillpoint metrics: " + r.text());
        }
        err.flush();
    }

    /** Whether this command may create a missing SQLite database file (only create-table does). */
    boolean createsDatabase() {
        return false;
    }

    /**
     * Opens the backend for reading and writing (a SQLite file is checked first: exit 4 when it is not a
     * database), and waits for the opening's startup recovery, at most {@link #RECOVERY_WAIT}: the command
     * then acts on what recovery left (a restore killed with -9 removed once its stamp passed [E5], a deferred
     * drop finished) instead of racing it. Found from outside: delete-table of a restore killed long before was
     * refused "a restore is filling it" while the same command's recovery removed the table.
     */
    Storage openStorage() {
        answer.put("backend", shownBackend());
        Storage storage = backend.open(false, createsDatabase(), dataUrl, events());
        try {
            // Past the wait the command goes on; closing waits for the pass in progress.
            storage.awaitStartupRecovery(RECOVERY_WAIT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return storage;
    }

    /**
     * Opens the backend to read (export, describe, list-tables): a SQLite file read-only [L4] (no
     * migration, no journal-mode switch, no control-plane work, nothing written; two read connections,
     * one snapshot at a time); a PostgreSQL catalog read-only the same way (READ ONLY transactions, no
     * migration, no poller); MongoDB and Cassandra as usual.
     */
    Storage openReadOnly() {
        answer.put("backend", shownBackend());
        return backend.open(true, false, dataUrl, events());
    }

    /** The backend as it may be printed (passwords masked). */
    String shownBackend() {
        return backend.shown(dataUrl);
    }

    @Override
    String scrub(String text) {
        return backend.scrub(text, dataUrl);
    }

}
