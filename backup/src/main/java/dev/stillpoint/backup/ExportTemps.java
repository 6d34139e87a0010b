package dev.stillpoint.backup;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The temporary files of one export, so that whoever stops it (a command's SIGINT/SIGTERM hook, an
 * application shutting down) can remove them with {@link #abandon()}. The final renames run under the
 * same lock ({@link #commit}), so an abandon either finds them done (and removes nothing) or prevents
 * them. Temp files are named {@code .<name>-<pid>-<n>.tmp}: the pid tells a later export whether
 * their writer is gone ({@link #removeStale}).
 */
public final class ExportTemps {
    /** {@code .<name>-<pid>-<n>.tmp}: the name of the file it becomes, the writer's pid, a random number. */
    private static final Pattern TEMP = Pattern.compile("\\.(.+)-(\\d+)-\\d+\\.tmp");

    private final List<Path> temps = new ArrayList<>();
    private final List<Path> directories = new ArrayList<>();
    private boolean committed;
    private boolean abandoned;

    /** What {@link #commit} runs under the lock. */
    interface Renames {
        void run() throws IOException;
    }

    synchronized Path create(Path dir, String name) throws IOException {
        if (abandoned) {
            throw interrupted();
        }
        Path temp = Files.createTempFile(dir, "." + name + "-" + ProcessHandle.current().pid() + "-", ".tmp");
        temps.add(temp);
        return temp;
    }

    /**
     * {@code dir}, made here when it is not there yet. One made here goes with the temp files when the
     * export does not complete, if nothing else is in it by then.
     */
    synchronized Path directory(Path dir) throws IOException {
        if (abandoned) {
            throw interrupted();
        }
        try {
            Files.createDirectory(dir);
            directories.add(dir);
        } catch (FileAlreadyExistsException e) {
            if (!Files.isDirectory(dir)) {
                throw e;
            }
        }
        return dir;
    }

    synchronized void commit(Renames renames) throws IOException {
        if (abandoned) {
            throw interrupted();
        }
        renames.run();
        committed = true;
    }

    private static BackupFailure interrupted() {
        return new BackupFailure(BackupFailure.Problem.INTERRUPTED, "the export was interrupted", null);
    }

    /**
     * Stops the export: removes every temp file it made and makes its final renames fail.
     *
     * @return how many files were removed, or -1 when the export had already finished (nothing to undo)
     */
    public synchronized int abandon() {
        if (committed) {
            return -1;
        }
        abandoned = true;
        return remove();
    }

    /** Removes what is left after a failure: temps the renames did not consume, and directories made for them. */
    synchronized void removeLeftovers() {
        remove();
    }

    private int remove() {
        int removed = 0;
        for (Path temp : temps) {
            try {
                if (Files.deleteIfExists(temp)) {
                    removed++;
                }
            } catch (IOException ignored) {
                // Left for the next export's stale sweep; its dot name keeps it out of the way meanwhile.
            }
        }
        if (!committed) {
            for (Path dir : directories) {
                try {
                    Files.deleteIfExists(dir);
                } catch (IOException ignored) {
                    // Not empty (a file someone else put there) or not ours to remove: it stays.
                }
            }
        }
        return removed;
    }

    /**
     * Removes temp files of this naming left in {@code dir} (and its {@code data/}) by an export that is
     * gone (killed): those whose pid is no live process, and those of the earlier naming without a pid. A
     * live export's temp files are left alone.
     *
     * @param dir an export's output directory
     * @return the names removed
     */
    public static List<String> removeStale(Path dir) {
        List<String> removed = new ArrayList<>();
        sweep(dir, removed);
        sweep(dir.resolve(DynamoDbLayout.DATA_DIR), removed);
        return removed;
    }

    private static void sweep(Path dir, List<String> removed) {
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, ".*.tmp")) {
            for (Path file : files) {
                Matcher m = TEMP.matcher(file.getFileName().toString());
                // Only a temp file of a name an export writes: a hidden file of the user's that merely ends in
                // -<digits>.tmp is not ours to remove.
                if (!m.matches() || !ExportFileNames.isExportName(m.group(1))
                        || !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                    continue;
                }
                boolean gone = ProcessHandle.of(Long.parseLong(m.group(2))).map(h -> !h.isAlive()).orElse(true);
                if (gone && Files.deleteIfExists(file)) {
                    removed.add(file.getFileName().toString());
                }
            }
        } catch (IOException | NumberFormatException e) {
            // A directory we cannot list or clean is reported by the export's own writes.
        }
    }
}
