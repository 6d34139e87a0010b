package dev.stillpoint.cli;

import dev.stillpoint.backup.BackupFailure;
import dev.stillpoint.backup.CheckedExport;
import dev.stillpoint.backup.CheckedChanges;
import dev.stillpoint.backup.ChangesApply;
import dev.stillpoint.backup.ExportKey;
import dev.stillpoint.backup.ExportReader;
import dev.stillpoint.backup.TableRestore;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.lifecycle.RestoreIdleLimit;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.in.Storage;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/** {@code restore}: an export (ours or DynamoDB's) into a NEW table on any backend [E3-E5]. */
@Command(name = "restore", mixinStandardHelpOptions = true,
        description = {"Restore an export into a NEW table: ours (manifest.json + items.jsonl) or a DynamoDB"
                + " DYNAMODB_JSON export directory (manifest-summary.json, manifest-files.json, data/*.json.gz,"
                + " gzipped or not; give --key, a DynamoDB export carries no definition).",
            "The whole input is checked first (format version, every checksum and item count, every line an item"
                + " with the key's attributes and types); a bad input is refused naming the file and line, and"
                + " nothing is created. A name in use is refused up front.",
            "The table is created CREATING from the exported definition (key schema, GSIs, LSIs, stream"
                + " specification) with a RestoreSummary in progress, loaded in batches, then ACTIVE.",
            "A failure or Ctrl-C in the middle removes the new table and says so.",
            "An INCREMENTAL export (export --since, either layout) is applied instead to the EXISTING table --table,"
                + " which must stand at the export's start marker (recorded by the full restore, or by the previous"
                + " apply); the whole input is checked first; puts replace items, deletes remove them (a delete of a"
                + " key the table does not hold is a no-op), and the table's marker moves to the export's end.",
            "Progress on stderr, for the check and for the load: a bar with total, percent, rate and time left on a"
                + " terminal; otherwise a line every --progress-interval seconds; --quiet for none."},
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
            "0:restored, the table ACTIVE",
            "1:other storage error",
            "2:usage error",
            "4:database file unreadable or not a SQLite database, or the server cannot be reached",
            "9:the backend does not support restores (Unsupported); nothing created",
            "10:input missing, unreadable, or not an export of a known format and version (or no --key for a"
                + " DynamoDB export, a --key whose names or types differ from the exported key or, for an"
                + " incremental export, the table's; or a directory holding two exports); nothing created or written",
            "11:the input's integrity: a checksum, an item count or a gzip stream does not match its manifest, or a"
                + " file was cut short (also mid-line); nothing created",
            "12:the input's content: a line of an intact file is not an item, or breaks a rule of DynamoDB's;"
                + " nothing created",
            "13:the table name is in use; nothing created",
            "14:the load failed or was interrupted mid-way; the new table was removed",
            "16:an incremental export that does not start at the snapshot marker the table stands at (or the table"
                + " records none); nothing written",
            "17:the load failed mid-way and removing the new table failed too (both named); it stays CREATING until"
                + " a command that writes removes it once its restore has been idle 60 s",
            "130/143:interrupted by SIGINT/SIGTERM; the new table was removed"})
final class RestoreCommand extends StorageCommand {

    @Option(names = "--from", required = true, paramLabel = "DIR", description = "The export directory.")
    Path from;

    @Option(names = "--table", required = true, paramLabel = "NEW_NAME", description = "The new table's name; for an incremental export, the existing table it is applied to.")
    String table;

    @Option(names = "--key", paramLabel = "HASH:TYPE[,RANGE:TYPE]", converter = KeyConverter.class,
            description = "The key, e.g. pk:S,sk:N: required for a DynamoDB export; for ours, checked against the"
                    + " exported key; for an incremental export, against the table's.")
    ExportKey key;

    @Option(names = "--duplicates", paramLabel = "refuse|last-wins", defaultValue = "refuse",
            converter = DuplicatesConverter.class,
            description = "Two lines holding one key (a number compared by its value: 170 and 170000E-3 are one key):"
                    + " refuse the input naming both lines (default, exit 12), or last-wins: the last line of each key"
                    + " is loaded and the summary says how many lines collapsed.")
    ExportReader.Duplicates duplicates;

    @Option(names = "--batch", paramLabel = "ITEMS", defaultValue = "" + TableRestore.DEFAULT_BATCH,
            description = "Items per write (default: ${DEFAULT-VALUE}); a write also ends once its items reach 4 MiB.")
    int batch;

    @Option(names = {"-j", "--jobs"}, paramLabel = "N", defaultValue = "1",
            description = "Load up to N data files at once [B3] (an export -j N has N; DynamoDB's layout may have several):"
                    + " on PostgreSQL each file is read, checked again and COPYed by its own thread on its own connection"
                    + " and transaction (at most half the pool); SQLite, MongoDB and Cassandra take one load at a time,"
                    + " so their files load one after another whatever N is (the summary says so). The check before"
                    + " anything is created is the same for every N: every file's checksum and count, every line, and"
                    + " every key against every other file's. 1..64 (default 1).")
    int jobs;

    @picocli.CommandLine.Mixin
    ProgressOptions progress = new ProgressOptions();

    /** Told after every batch, besides the progress display: a forked test pauses the restore mid-way with it. */
    TableRestore.Listener pace = TableRestore.Listener.NONE;

    /** {@code refuse} or {@code last-wins}. */
    static final class DuplicatesConverter implements ITypeConverter<ExportReader.Duplicates> {
        @Override
        public ExportReader.Duplicates convert(String value) {
            return switch (value) {
                case "refuse" -> ExportReader.Duplicates.REFUSE;
                case "last-wins" -> ExportReader.Duplicates.LAST_WINS;
                default -> throw new TypeConversionException("expected refuse or last-wins, got '" + value + "'");
            };
        }
    }

    /** {@code pk:S[,sk:N]}. */
    static final class KeyConverter implements ITypeConverter<ExportKey> {
        @Override
        public ExportKey convert(String value) {
            try {
                return ExportReader.parseKey(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    @Override
    boolean createsDatabase() {
        // An incremental export applies to a table that exists: no database is made for it [O4].
        return !CheckedChanges.isIncremental(from);
    }

    @Override
    int run() {
        if (batch < 1) {
            throw new CliFailure(ExitCodes.USAGE, "--batch must be at least 1, got " + batch);
        }
        if (jobs < 1 || jobs > dev.stillpoint.backup.ExportOptions.MAX_SEGMENTS) {
            throw new CliFailure(ExitCodes.USAGE, "-j must be 1.." + dev.stillpoint.backup.ExportOptions.MAX_SEGMENTS
                    + ", got " + jobs + "; nothing read or created");
        }
        if (CheckedChanges.isIncremental(from)) {
            return apply();
        }
        // The input first, in full: a bad one creates nothing, not even a SQLite file [E3].
        CheckedExport export;
        try {
            export = ExportReader.check(from, table, Optional.ofNullable(key), duplicates,
                    progress.progress(err(), "checking " + from, -1, false));
        } catch (BackupFailure f) {
            throw Exporter.failure(f);
        }
        TableRestore.Abort abort = new TableRestore.Abort();
        Thread hook = new Thread(() -> {
            try {
                if (abort.abandon()) {
                    System.err.println("stillpoint restore: interrupted; table '" + table + "' removed");
                }
            } catch (RuntimeException e) {
                // One line, as every other failure: the JVM would print the hook's exception as a stack trace.
                System.err.println("stillpoint restore: interrupted; removing table '" + table + "' failed: " + why(e)
                        + stays());
            }
            System.err.flush();
        }, "stillpoint-restore-interrupted");
        try (Storage storage = openStorage()) {
            Runtime.getRuntime().addShutdownHook(hook);
            TableRestore.Listener bar = progress.progress(err(), "restoring " + table, export.itemCount(), false);
            TableRestore.Listener both = new TableRestore.Listener() {
                @Override
                public void began(dev.stillpoint.domain.table.TableDescription created, long items) {
                    bar.began(created, items);
                    pace.began(created, items);
                }

                @Override
                public void restored(long items) {
                    bar.restored(items);
                    pace.restored(items);
                }

                @Override
                public void finished(long items) {
                    bar.finished(items);
                }
            };
            TableRestore.Result r = TableRestore.from(from).batchSize(batch).listener(both).abort(abort)
                    .jobs(jobs).run(storage, export, account, table);
            answer.put("from", from.toString());
            answer.put("table", table);
            answer.put("status", r.table().status().name());
            answer.put("format", r.format().name());
            answer.put("items", r.items());
            answer.put("elapsedMillis", r.elapsed().toMillis());
            answer.put("itemsPerSecond", Math.round(r.itemsPerSecond()));
            answer.put("collapsedLines", export.collapsedLines());
            answer.put("writers", r.writers());
            r.table().restoreSummary().ifPresent(s -> answer.putObject("restoreSummary")
                    .put("sourceTableArn", s.sourceTableArn().orElse(null))
                    .put("restoreDateTime", s.restoreDateTime().toString()));
            PrintWriter out = out();
            out.printf("restored %,d items into table '%s' (%s) on %s in %d ms: %,.0f items/s%n", r.items(), table,
                    r.table().status(), shownBackend(), r.elapsed().toMillis(), r.itemsPerSecond());
            if (jobs > 1) {
                out.printf("  %d data file%s, loaded %d at once (-j %d%s)%n", export.dataFiles(),
                        export.dataFiles() == 1 ? "" : "s", r.writers(), jobs,
                        r.writers() < Math.min(jobs, export.dataFiles()) ? "; " + backend.capabilities().backend()
                                + " takes " + r.writers() + (r.writers() == 1 ? " writer" : " writers") + " at once" : "");
            }
            if (export.collapsedLines() > 0) {
                out.printf("  %,d line(s) collapsed: a later line held the same key and won (--duplicates last-wins)%n",
                        export.collapsedLines());
            }
            r.table().restoreSummary().ifPresent(s -> out.printf("  restore summary: source %s, restored to %s (%s)%n",
                    s.sourceTableArn().orElse("(none named)"), s.restoreDateTime(), export.exportTime().isPresent()
                            ? "the export's time" : "the restore's own: the export does not say when it was read"));
            out.flush();
            return ExitCodes.OK;
        } catch (StorageException e) {
            if (e.reason() == ErrorReason.RESOURCE_IN_USE) {
                throw new CliFailure(ExitCodes.TABLE_EXISTS, CliCommand.message(e) + "; nothing created", e);
            }
            if (e.reason() == ErrorReason.UNSUPPORTED) {
                throw new CliFailure(ExitCodes.UNSUPPORTED, CliCommand.message(e) + "; nothing created", e);
            }
            throw e;
        } catch (TableRestore.Abandoned e) {
            throw new CliFailure(ExitCodes.RESTORE_ABANDONED, "restore into '" + table + "' stopped: " + why(e.getCause())
                    + "; the table was removed", e);
        } catch (TableRestore.NotRemoved e) {
            throw new CliFailure(ExitCodes.RESTORE_NOT_REMOVED, "restore into '" + table + "' stopped: " + why(e.getCause())
                    + "; removing the table failed too: " + why(e.removal()) + stays(), e);
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // The hook is running or has run.
            }
        }
    }

    /** What becomes of a table whose removal failed [E5]. */
    private static String stays() {
        return "; it stays CREATING until a command that writes (put, delete-table, migrate, ...) removes it, once its"
                + " last sign of life is " + RestoreIdleLimit.DEFAULT_DURATION.toSeconds() + " s old";
    }

    /** A restore's failure as printed: a storage failure with its reason, anything else by its message. */
    private static String why(Throwable failure) {
        return failure instanceof StorageException s ? CliCommand.message(s) : failure.getMessage();
    }

    /**
     * An incremental export [I3]: applied to the EXISTING table {@code --table}, which must stand at the
     * export's start marker (the full restore recorded it); everything checked before the first write.
     */
    private int apply() {
        // Found from outside: -j 4, --batch 7 and --duplicates last-wins were taken and ignored, and a --key of
        // another type than the table's was applied without a word.
        List<String> unused = Stream.of("--duplicates", "--batch", "--jobs")
                .filter(spec.commandLine().getParseResult()::hasMatchedOption).toList();
        if (!unused.isEmpty()) {
            throw new CliFailure(ExitCodes.USAGE, String.join(", ", unused) + (unused.size() == 1 ? " is an option"
                    : " are options") + " of a full restore; " + from + " holds an incremental export, applied to the"
                    + " existing table '" + table + "' one change after another [I3]: leave "
                    + (unused.size() == 1 ? "it" : "them") + " out; nothing read or written");
        }
        try (Storage storage = openStorage()) {
            if (key != null) {
                ExportKey held = heldKey(storage);
                if (!held.shown().equals(key.shown())) {
                    throw new CliFailure(ExitCodes.INPUT_FORMAT, "table '" + table + "' has the key " + held.shown()
                            + ", not the key given with --key (" + key.shown() + "); nothing written");
                }
            }
            ChangesApply.Result r;
            try {
                r = TableRestore.from(from).apply(storage, account, table);
            } catch (BackupFailure f) {
                throw Exporter.failure(f);
            }
            answer.put("from", from.toString());
            answer.put("table", table);
            answer.put("status", r.table().status().name());
            answer.put("format", r.format().name());
            answer.put("incremental", true);
            answer.put("puts", r.puts());
            answer.put("tombstones", r.tombstones());
            answer.put("absentTombstones", r.absentTombstones());
            answer.put("elapsedMillis", r.elapsed().toMillis());
            answer.putObject("since").put("marker", r.since());
            answer.putObject("until").put("marker", r.until());
            PrintWriter out = out();
            out.printf("applied %,d changes (%,d puts, %,d deletes, %,d of keys not held) to table '%s' on %s in %d ms%n",
                    r.puts() + r.tombstones(), r.puts(), r.tombstones(), r.absentTombstones(), table, shownBackend(),
                    r.elapsed().toMillis());
            out.printf("  marker    %s -> %s%n", r.since(), r.until());
            out.flush();
            return ExitCodes.OK;
        }
    }

    /** The key of the table an incremental export applies to, as --key writes it. */
    private ExportKey heldKey(Storage storage) {
        TableDescription held = storage.tables().describeTable(account, table);
        return new ExportKey(held.keySchema(), held.attributeDefinitions());
    }
}
