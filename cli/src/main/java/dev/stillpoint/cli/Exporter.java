package dev.stillpoint.cli;

import dev.stillpoint.backup.BackupFailure;
import dev.stillpoint.backup.ExportListener;
import dev.stillpoint.backup.ExportOptions;
import dev.stillpoint.backup.ExportResult;
import dev.stillpoint.backup.ExportTemps;
import dev.stillpoint.backup.TableExport;
import dev.stillpoint.ports.in.SnapshotEngine;
import dev.stillpoint.ports.out.StorageEvents;
import java.nio.file.Path;

/**
 * The command line's side of an export ({@link TableExport} does the work): SIGINT and SIGTERM while
 * it runs remove its temp files and print one line (a shutdown hook; the JVM then exits 130 / 143),
 * and each {@link BackupFailure} becomes its exit code. A kill -9 leaves the temp files:
 * {@link ExportTemps#removeStale}, which the export command runs first, removes those whose process
 * is gone.
 */
final class Exporter {

    private Exporter() {
    }

    /** {@link TableExport#prepareOutput}, failing with exit 5. */
    static Path prepareOutput(Path dir) {
        try {
            return TableExport.prepareOutput(dir);
        } catch (BackupFailure f) {
            throw failure(f);
        }
    }

    /** Our layout, every item checked, told to no meters. */
    static ExportResult export(SnapshotEngine engine, String account, String table, Path dir, ExportListener listener) {
        return export(engine, account, table, dir, ExportOptions.of(dev.stillpoint.backup.ExportFormat.STILLPOINT), listener,
                StorageEvents.NONE);
    }

    /**
     * Exports under a shutdown hook that abandons the export (removing its temp files) on SIGINT/SIGTERM.
     * Storage failures propagate as they are; backup failures end with their exit code. {@code events} is told
     * of the completed export (--metrics' export meters).
     */
    static ExportResult export(SnapshotEngine engine, String account, String table, Path dir, ExportOptions options,
                               ExportListener listener, StorageEvents events) {
        ExportTemps temps = new ExportTemps();
        Thread hook = new Thread(() -> {
            int removed = temps.abandon();
            if (removed >= 0) {
                System.err.println("stillpoint export: interrupted; removed " + removed + " temporary file"
                        + (removed == 1 ? "" : "s") + " from " + dir + ", no manifest written");
                System.err.flush();
            }
        }, "stillpoint-export-interrupted");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            return TableExport.to(dir).options(options).listener(listener).events(events).temps(temps)
                    .run(engine, account, table);
        } catch (BackupFailure f) {
            throw failure(f);
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // The hook is running or has run: nothing to undo.
            }
        }
    }

    /** The exit code of a backup failure, with its message. */
    static CliFailure failure(BackupFailure f) {
        int code = switch (f.problem()) {
            case OUTPUT, INTERRUPTED -> ExitCodes.OUTPUT;
            case CORRUPT_ITEM -> ExitCodes.CORRUPT_ITEM;
            case FORMAT -> ExitCodes.INPUT_FORMAT;
            case INTEGRITY -> ExitCodes.INPUT_INTEGRITY;
            case ITEM -> ExitCodes.INPUT_ITEM;
            case MARKER -> ExitCodes.INPUT_MARKER;
        };
        return new CliFailure(code, f.getMessage(), f);
    }
}
