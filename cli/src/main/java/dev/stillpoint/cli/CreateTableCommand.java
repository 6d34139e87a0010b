package dev.stillpoint.cli;

import dev.stillpoint.ports.in.Storage;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.table.ChangeLog;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.IndexStatus;
import dev.stillpoint.domain.table.Projection;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.in.TableOperations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code create-table}: creates a table (and the database file if missing) and waits until it is ACTIVE. */
@Command(name = "create-table", mixinStandardHelpOptions = true,
        description = "Create a table (GSIs project ALL) and wait until it is ACTIVE. Creates the database file if missing.",
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
            "0:created and ACTIVE", "1:storage error (e.g. the table exists, or not ACTIVE in time)", "2:usage error",
            "4:database file unreadable or not a SQLite database, or the database server cannot be reached",
            "9:the backend keeps no change log (--change-log on MongoDB or Cassandra)"})
final class CreateTableCommand extends StorageCommand {

    @Option(names = "--table", required = true, paramLabel = "NAME", description = "Table name (3-255 of [a-zA-Z0-9_.-]).")
    String table;

    @Option(names = "--key", required = true, paramLabel = "HASH:TYPE[,RANGE:TYPE]",
            converter = KeySpecs.KeyConverter.class, description = "Primary key, e.g. pk:S or pk:S,sk:N (types S, N, B).")
    KeySpecs.KeySpec key;

    @Option(names = "--gsi", paramLabel = "NAME:ATTR:TYPE[:RANGEATTR:TYPE]", converter = KeySpecs.GsiConverter.class,
            description = "A global secondary index projecting ALL; repeatable.")
    List<KeySpecs.GsiSpec> gsis = new ArrayList<>();

    @Option(names = "--change-log", paramLabel = "VIEW", defaultValue = "OFF",
            description = "Keep a change log for incremental exports (export --since) [I1]: NEW_IMAGE,"
                    + " NEW_AND_OLD_IMAGES, or OFF (default). SQLite and PostgreSQL (both layouts); MongoDB and"
                    + " Cassandra refuse it.")
    ChangeLog changeLog;

    @Option(names = "--wait", paramLabel = "SECONDS", defaultValue = "30",
            description = "How long to wait for ACTIVE (default: ${DEFAULT-VALUE}).")
    long waitSeconds;

    @Override
    boolean createsDatabase() {
        return true;
    }

    @Override
    int run() {
        // Checked before anything is created: a refused option leaves no table and no file behind.
        if (waitSeconds < 0) {
            throw new CliFailure(ExitCodes.USAGE, "--wait must be 0 or more seconds, got " + waitSeconds);
        }
        CreateTableRequest request = withChangeLog(request(account, table, key, gsis), changeLog);
        try (Storage storage = openStorage()) {
            TableDescription d = createAndWait(storage.tables(), request, Duration.ofSeconds(waitSeconds));
            answer.put("table", d.tableName());
            answer.put("status", d.status().name());
            out().printf("created table '%s' (%s) in %s%n", d.tableName(), d.status(), shownBackend());
            out().flush();
            return ExitCodes.OK;
        }
    }

    static CreateTableRequest request(String account, String table, KeySpecs.KeySpec key, List<KeySpecs.GsiSpec> gsis) {
        Map<String, AttributeDefinition> definitions = new LinkedHashMap<>();
        key.definitions().forEach(d -> define(definitions, d));
        List<GlobalSecondaryIndex> indexes = new ArrayList<>();
        for (KeySpecs.GsiSpec g : gsis) {
            g.key().definitions().forEach(d -> define(definitions, d));
            // Created with the table, the index is complete from the start: nothing to backfill. (The SQLite
            // adapter keeps a CreateTable index's requested status; CREATING would never turn ACTIVE.)
            indexes.add(new GlobalSecondaryIndex(g.name(), g.key().schema(), Projection.all(), IndexStatus.ACTIVE,
                    false, 0, 0));
        }
        return new CreateTableRequest(account, table, key.schema(), List.copyOf(definitions.values()), indexes,
                List.of(), Optional.empty());
    }

    private static CreateTableRequest withChangeLog(CreateTableRequest r, ChangeLog setting) {
        return new CreateTableRequest(r.accountId(), r.tableName(), r.keySchema(), r.attributeDefinitions(), r.gsis(),
                r.lsis(), r.stream(), r.timeToLive(), setting);
    }

    private static void define(Map<String, AttributeDefinition> definitions, AttributeDefinition d) {
        AttributeDefinition before = definitions.putIfAbsent(d.name(), d);
        if (before != null && before.type() != d.type()) {
            throw new CliFailure(ExitCodes.USAGE, "attribute '" + d.name() + "' is given two types: "
                    + before.type() + " and " + d.type());
        }
    }

    /** Creates the table and polls until it is ACTIVE, for at most {@code wait}. */
    static TableDescription createAndWait(TableOperations tables, CreateTableRequest request, Duration wait) {
        tables.createTable(request);
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            TableDescription d = tables.describeTable(request.accountId(), request.tableName());
            if (d.status() == TableStatus.ACTIVE) {
                return d;
            }
            if (System.nanoTime() > deadline) {
                throw new CliFailure(ExitCodes.STORAGE_ERROR, "table '" + request.tableName() + "' is still "
                        + d.status() + " after " + wait.toSeconds() + " s");
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StorageException(dev.stillpoint.domain.error.ErrorReason.TRANSIENT,
                        "interrupted waiting for table '" + request.tableName() + "' to become ACTIVE");
            }
        }
    }
}
