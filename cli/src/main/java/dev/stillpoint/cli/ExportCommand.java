package dev.stillpoint.cli;

import dev.stillpoint.backup.ExportListener;
import dev.stillpoint.backup.ExportResult;
import dev.stillpoint.backup.TableExport;
import dev.stillpoint.backup.ExportTemps;

import dev.stillpoint.ports.in.Storage;
import dev.stillpoint.backup.ExportFormat;
import dev.stillpoint.backup.ChangesExport;
import dev.stillpoint.backup.ExportOptions;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.ports.in.SnapshotEngine;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code export}: one consistent snapshot of a table to {@code items.jsonl} and {@code manifest.json}. */
@Command(name = "export", mixinStandardHelpOptions = true,
        description = {"Export one consistent snapshot of a table from any backend with snapshots (SQLite, PostgreSQL in either"
                + " layout, MongoDB; Cassandra answers Unsupported). Default format: DIR/items.jsonl (each item's stored DynamoDB JSON,"
                + " one per line, in key order where the table has one) and DIR/manifest.json (description,"
                + " snapshot kind and marker, keyOrdered, item count, sha256 of items.jsonl).",
            "Writers are never blocked; nothing they commit after the snapshot opens is exported.",
            "Read-only: the database is opened with SQLITE_OPEN_READONLY; no migration, no journal-mode change,"
                + " no control-plane work (a DELETING table keeps its data). Every item is checked (well-formed"
                + " DynamoDB JSON, key attributes equal to the row's stored key) before it is written.",
            "SIGINT/SIGTERM remove the temporary files and print one line; an export removes stale temporary"
                + " files that a killed export left in DIR.",
            "The files are mode 0600 (owner read and write only) whatever the umask: each is written as a temporary"
                + " file, which is created private, and renamed into place; chmod them to share an export.",
            "Progress on stderr: a bar with total (on SQLite the snapshot's exact count; elsewhere the table's last"
                + " counted ItemCount, an estimate), percent, rate"
                + " and time left on a terminal; otherwise a line every --progress-interval seconds; --quiet for none."},
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
            "0:exported",
            "1:other storage error (e.g. the table is not ACTIVE)",
            "2:usage error",
            "3:table not found",
            "4:database file missing, unreadable, or not a Stillpoint database at this build's schema version;"
                + " or the database server cannot be reached",
            "5:output directory not writable, not a directory, or already holding an export (ours or DynamoDB's) or a"
                + " file of a name an export writes (items.jsonl, ...), which it would replace",
            "6:not enough snapshot permits free (LimitExceeded): every one is held (retry when one ends), or -j N asks for"
                + " more segments than the backend has permits (PostgreSQL: half the pool; the message names both"
                + " numbers); nothing written",
            "8:a stored item is not well-formed DynamoDB JSON or names another key than its row's; the message"
                + " names it (position and stored key); no manifest written",
            "9:the backend has no snapshots (Cassandra) [C1]; nothing opened or written",
            "130/143:interrupted by SIGINT/SIGTERM; temporary files removed, no manifest written"})
final class ExportCommand extends StorageCommand {

    @Option(names = "--table", required = true, paramLabel = "NAME", description = "The table to export.")
    String table;

    @Option(names = "--out", required = true, paramLabel = "DIR",
            description = "Output directory (created if missing); the layout's files are replaced.")
    Path outDir;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "stillpoint",
            converter = FormatConverter.class,
            description = "stillpoint (default: manifest.json + items.jsonl) or dynamodb (DynamoDB's DYNAMODB_JSON"
                    + " export layout: manifest-summary.json, manifest-files.json, data/*.json.gz).")
    ExportFormat format;

    @Option(names = "--since", paramLabel = "MARKER",
            description = "Incremental export [I2]: only the changes committed after the snapshot MARKER names (a full"
                    + " export's snapshot.marker, or an incremental one's until.marker) and visible in a new snapshot,"
                    + " to DIR/changes.jsonl (one {\"Keys\":..,\"NewImage\":..} a line; a delete has no NewImage;"
                    + " OldImage where the table's log keeps it) and DIR/manifest.json naming both markers. The table"
                    + " must keep a change log (create-table --change-log). A marker of another table, older than"
                    + " the log or later than now is refused by name (exit 1). With --format dynamodb: DynamoDB's"
                    + " incremental export layout (manifest-summary.json of exportType INCREMENTAL_EXPORT, outputView,"
                    + " both markers in stillpointWindow; data/*.json.gz lines {\"Metadata\":{\"WriteTimestampMicros\":..},"
                    + "\"Keys\":..,\"NewImage\":..,\"OldImage\":..}) [I3].")
    String since;

    @Option(names = "--view", paramLabel = "NEW_IMAGE|NEW_AND_OLD_IMAGES",
            description = "With --since: the images each line carries, as DynamoDB's ExportViewType: NEW_IMAGE (no"
                    + " OldImage) or NEW_AND_OLD_IMAGES (only of a table whose log keeps old images). Default: the"
                    + " table's log's own.")
    dev.stillpoint.domain.table.ChangeLog view;

    @Option(names = {"-j", "--jobs"}, paramLabel = "N", defaultValue = "1",
            description = "Read the snapshot as N segments of ONE instant (disjoint key ranges), each written to its own"
                    + " data file(s) by its own thread [B3]: our layout writes items-00000.jsonl .. items-<N-1>.jsonl"
                    + " and a manifest.json of format stillpoint-export/2 listing each file with its itemCount, bytes"
                    + " and sha256; DynamoDB's layout writes each segment's own data files. The items are exactly those"
                    + " of -j 1 at that instant. 1..64 (default 1: items.jsonl, format stillpoint-export/1, as before)."
                    + " Each segment holds a snapshot permit (PostgreSQL: at most half the pool; more is exit 6)."
                    + " PostgreSQL reads the segments on N connections at once; SQLite cuts its one read into N files;"
                    + " MongoDB serves no segments: -j above 1 is refused (exit 9).")
    int jobs;

    @picocli.CommandLine.Mixin
    ProgressOptions progress = new ProgressOptions();

    /** Told after every item, besides the progress display: a forked test pauses the export mid-way with it. */
    ExportListener pace = ExportListener.NONE;

    /** {@code stillpoint} or {@code dynamodb}, in any case. */
    static final class FormatConverter implements picocli.CommandLine.ITypeConverter<ExportFormat> {
        @Override
        public ExportFormat convert(String value) {
            return switch (value.toLowerCase(java.util.Locale.ROOT)) {
                case "stillpoint" -> ExportFormat.STILLPOINT;
                case "dynamodb", "dynamodb_json" -> ExportFormat.DYNAMODB;
                default -> throw new picocli.CommandLine.TypeConversionException(
                        "format '" + value + "' is not one of stillpoint, dynamodb");
            };
        }
    }

    @Override
    int run() {
        if (view != null && since == null) {
            throw new CliFailure(ExitCodes.USAGE, "--view chooses the images of an incremental export: give it with --since");
        }
        requireJobs();
        try {
            // A backend without snapshots (Cassandra [C1]) is refused before anything is opened or written [E2].
            backend.capabilities().requireSnapshots();
        } catch (StorageException refusal) {
            throw new CliFailure(ExitCodes.UNSUPPORTED, CliCommand.message(refusal), refusal);
        }
        if (jobs > 1 && !backend.capabilities().segments().offered()) {
            // Refused, not served as one file: a user who asked for N files gets none rather than a different layout.
            throw new CliFailure(ExitCodes.UNSUPPORTED, backend.capabilities().backend() + " serves no segmented"
                    + " snapshot, so -j " + jobs + " cannot be exported; export with -j 1 [B3]; nothing opened or written");
        }
        backend.readOnlySnapshots = jobs;
        // The database is checked first: a file refused as no Stillpoint database leaves no output directory.
        try (Storage storage = openReadOnly()) {
            boolean made = !Files.exists(outDir);
            try {
                if (since != null) {
                    return exportSince(storage);
                }
                Exporter.prepareOutput(outDir);
                return export(storage.snapshots(), estimate(storage));
            } catch (RuntimeException e) {
                // A failed export (no such table, a refused item) leaves no directory it made.
                if (made) {
                    removeIfEmpty(outDir);
                }
                throw e;
            }
        }
    }

    /** {@code -j}: checked before anything is opened or created; a bad count is a usage error naming it. */
    private void requireJobs() {
        try {
            ExportOptions.requireSegments(jobs);
        } catch (StorageException e) {
            throw new CliFailure(ExitCodes.USAGE, CliCommand.message(e) + "; nothing opened or written", e);
        }
        if (jobs > 1 && since != null) {
            throw new CliFailure(ExitCodes.USAGE, "-j " + jobs + " splits a full export into segments; an incremental"
                    + " export (--since) is one file: leave -j out");
        }
    }

    /** {@code --since}: the window's changes in our layout [I2]; a refused marker writes nothing [I4]. */
    private int exportSince(Storage storage) {
        ChangesExport.Result r;
        try {
            r = TableExport.to(outDir).format(format).events(events()).runSince(storage, account, table, since,
                    java.util.Optional.ofNullable(view));
        } catch (StorageException e) {
            if (e.reason() == ErrorReason.UNSUPPORTED) {
                throw new CliFailure(ExitCodes.UNSUPPORTED, CliCommand.message(e), e);
            }
            throw e;
        }
        answer.put("table", table);
        answer.put("out", outDir.toString());
        answer.put("changes", r.puts() + r.tombstones());
        answer.put("puts", r.puts());
        answer.put("tombstones", r.tombstones());
        answer.put("bytes", r.bytes());
        answer.put("format", r.format().name());
        answer.put("view", r.view().name());
        if (r.sha256() != null) {
            answer.put("sha256", r.sha256());
        }
        answer.put("elapsedMillis", r.elapsed().toMillis());
        answer.putObject("since").put("kind", r.changes().since().kind()).put("marker", r.changes().since().marker());
        answer.putObject("until").put("kind", r.changes().until().kind()).put("marker", r.changes().until().marker());
        answer.put("manifest", r.manifestFile().toString());
        PrintWriter out = out();
        out.printf("exported %,d changes (%,d puts, %,d deletes) of table '%s' to %s in %d ms%n",
                r.puts() + r.tombstones(), r.puts(), r.tombstones(), table, outDir, r.elapsed().toMillis());
        out.printf("  since     %s %s%n", r.changes().since().kind(), r.changes().since().marker());
        out.printf("  until     %s %s%n", r.changes().until().kind(), r.changes().until().marker());
        if (r.format() == ExportFormat.STILLPOINT) {
            out.printf("  %s  %,d bytes, sha256 %s (view %s)%n", ChangesExport.DATA_FILE, r.bytes(), r.sha256(), r.view());
        } else {
            out.printf("  %s  %,d bytes gzipped (view %s)%n", outDir.relativize(r.dataFile()), r.bytes(), r.view());
        }
        out.printf("  %s%n", outDir.relativize(r.manifestFile()));
        out.flush();
        return ExitCodes.OK;
    }

    private static void removeIfEmpty(Path dir) {
        try (var entries = Files.list(dir)) {
            if (entries.findAny().isEmpty()) {
                Files.delete(dir);
            }
        } catch (IOException e) {
            // Nothing more to do: the failure being reported matters more than the empty directory.
        }
    }

    /** The export on an engine already open: what {@link #run} does after opening it, with the same exit codes. */
    int exportWith(SnapshotEngine engine) {
        return guarded(() -> {
            requireJobs();
            Exporter.prepareOutput(outDir);
            return export(engine, -1);
        });
    }

    /**
     * The table's ItemCount as its last statistics pass counted it: the progress display's total, an
     * estimate (DescribeTable's count is approximate; a snapshot's description carries none [S2]); -1 when
     * none is known. A table that cannot be described is left to the snapshot's opening to report.
     */
    private long estimate(Storage storage) {
        try {
            long count = storage.tables().describeTable(account, table).itemCount();
            return count > 0 ? count : -1;
        } catch (StorageException e) {
            return -1;
        }
    }

    private int export(SnapshotEngine engine, long estimate) {
        answer.put("table", table);
        answer.put("out", outDir.toString());
        List<String> stale = ExportTemps.removeStale(outDir);
        stale.forEach(answer.putArray("staleTemporaryFilesRemoved")::add);
        if (!stale.isEmpty()) {
            err().println("stillpoint export: removed " + stale.size() + " stale temporary file"
                    + (stale.size() == 1 ? "" : "s") + " of an interrupted export from " + outDir + ": "
                    + String.join(", ", stale));
            err().flush();
        }
        ExportResult r;
        try {
            r = Exporter.export(engine, account, table, outDir, ExportOptions.of(format).withSegments(jobs),
                    ExportListener.both(progress.progress(err(), "exporting " + table + " (each item checked)",
                            estimate, true), pace), events());
        } catch (StorageException e) {
            if (e.reason() == ErrorReason.UNSUPPORTED) {
                throw new CliFailure(ExitCodes.UNSUPPORTED, CliCommand.message(e), e);
            }
            throw e;
        }
        answer.put("format", r.format().name());
        answer.put("items", r.items());
        answer.put("bytes", r.bytes());
        answer.put("elapsedMillis", r.elapsed().toMillis());
        answer.putObject("snapshot").put("kind", r.info().kind().toString()).put("marker", r.info().marker());
        answer.put("keyOrdered", r.keyOrdered());
        if (r.sha256() != null && !r.sha256().isEmpty()) {
            answer.put("sha256", r.sha256());
        }
        answer.put("segments", jobs);
        r.dataFiles().forEach(f -> answer.withArray("dataFiles").add(f.toString()));
        answer.put("manifest", r.manifestFile().toString());
        PrintWriter out = out();
        out.printf("exported %,d items of table '%s' to %s in %d ms%n", r.items(), table, outDir,
                r.elapsed().toMillis());
        out.printf("  snapshot  %s %s, key-ordered: %s%n", r.info().kind(), r.info().marker(),
                r.keyOrdered() ? "yes" : "no");
        if (r.format() == ExportFormat.STILLPOINT && r.dataFiles().size() == 1) {
            out.printf("  %s  %,d bytes, sha256 %s%n", TableExport.DATA_FILE, r.bytes(), r.sha256());
        } else if (r.format() == ExportFormat.STILLPOINT) {
            out.printf("  %d data files (one per segment), %,d bytes; each file's count and sha256 in the manifest%n",
                    r.dataFiles().size(), r.bytes());
        } else {
            out.printf("  %d data file%s under data/, %,d bytes gzipped%n", r.dataFiles().size(),
                    r.dataFiles().size() == 1 ? "" : "s", r.bytes());
        }
        out.printf("  %s%n", outDir.relativize(r.manifestFile()));
        out.flush();
        return ExitCodes.OK;
    }
}
