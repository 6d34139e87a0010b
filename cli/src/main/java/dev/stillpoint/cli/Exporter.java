package dev.stillpoint.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.in.ItemStream;
import dev.stillpoint.ports.in.SnapshotEngine;
import dev.stillpoint.ports.in.SnapshotInfo;
import dev.stillpoint.ports.in.TableSnapshot;
import java.io.BufferedOutputStream;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import dev.stillpoint.ports.in.StoredItem;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.LinkOption;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;

/**
 * Writes one table snapshot to a directory: {@value #DATA_FILE} (each item's stored DynamoDB JSON
 * exactly as the snapshot yields it, one per line, never decoded) and {@value #MANIFEST_FILE}
 * (the description, the snapshot's kind and marker, keyOrdered, the item count and the data file's
 * sha256). Memory stays bounded by the snapshot's page, whatever the table's size [S7].
 *
 * <p>Both files are written under temporary names in the output directory
 * ({@code .items.jsonl-<pid>-<n>.tmp}, {@code .manifest.json-<pid>-<n>.tmp}) and renamed at the end:
 * first any old manifest is removed, then the data file is renamed, then the manifest, so a
 * manifest present always describes the data file beside it and a failed export leaves none.
 *
 * <p>Every item is checked before it is written ({@link ItemCheck}) [E1]: the first that fails ends the
 * export with exit {@value ExitCodes#CORRUPT_ITEM}, naming it, no manifest written, temp files removed.
 * SIGINT and SIGTERM while an export runs remove its temp files and print one line (a shutdown hook;
 * the JVM then exits 130 / 143). A kill -9 leaves them: {@link #removeStaleTemps}, which the export
 * command runs first, removes temp files of this naming whose process is gone.
 */
final class Exporter {
    static final String DATA_FILE = "items.jsonl";
    static final String MANIFEST_FILE = "manifest.json";
    static final String FORMAT = "stillpoint-export/1";

    private static final int BUFFER = 1 << 16;

    /** Told after every item written; the progress bar and the demo's pacing listen. */
    interface Listener {
        Listener NONE = items -> { };

        /** The snapshot is open (its instant fixed); items follow. */
        default void opened(SnapshotInfo info) {
        }

        void exported(long items);

        default void finished(long items) {
        }

        /** Both listeners, {@code first} told first. */
        static Listener both(Listener first, Listener second) {
            if (second == NONE) {
                return first;
            }
            return new Listener() {
                @Override
                public void opened(SnapshotInfo info) {
                    first.opened(info);
                    second.opened(info);
                }

                @Override
                public void exported(long items) {
                    first.exported(items);
                    second.exported(items);
                }

                @Override
                public void finished(long items) {
                    first.finished(items);
                    second.finished(items);
                }
            };
        }
    }

    /** What an export wrote. */
    record Result(TableDescription description, SnapshotInfo info, boolean keyOrdered, long items, long bytes,
                  String sha256, Path dataFile, Path manifestFile, Instant openedAt, Duration elapsed) {
    }

    private Exporter() {
    }

    /**
     * Checks that {@code dir} is a writable directory, creating it (and its parents) when missing;
     * anything else ends the command with exit 5.
     */
    static Path prepareOutput(Path dir) {
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new CliFailure(ExitCodes.OUTPUT, "output path " + dir + " exists and is not a directory");
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new CliFailure(ExitCodes.OUTPUT, "cannot create output directory " + dir + ": " + reason(e), e);
        }
        if (!Files.isWritable(dir)) {
            throw new CliFailure(ExitCodes.OUTPUT, "output directory " + dir + " is not writable");
        }
        return dir;
    }

    /**
     * Opens a snapshot of {@code table} on {@code engine} and writes it to {@code dir} (prepared by
     * {@link #prepareOutput}). Storage failures propagate as they are; output failures end with exit 5.
     */
    static Result export(SnapshotEngine engine, String account, String table, Path dir, Listener listener) {
        return export(engine, account, table, dir, listener, true);
    }

    /** As {@link #export(SnapshotEngine, String, String, Path, Listener)}; {@code checked} false only for the cost benchmark. */
    static Result export(SnapshotEngine engine, String account, String table, Path dir, Listener listener,
                         boolean checked) {
        long started = System.nanoTime();
        Interruption interruption = new Interruption(dir);
        Path dataTemp = null;
        Path manifestTemp = null;
        try {
            dataTemp = interruption.track(temp(dir, DATA_FILE));
            Instant openedAt = Instant.now();
            Written written;
            TableDescription description;
            SnapshotInfo info;
            boolean keyOrdered;
            try (TableSnapshot snapshot = engine.openTableSnapshot(account, table)) {
                description = snapshot.description();
                info = snapshot.info();
                keyOrdered = snapshot.keyOrdered();
                listener.opened(info);
                written = writeItems(snapshot.items(), dataTemp, listener,
                        checked ? new ItemCheck(description) : null);
            }
            listener.finished(written.items);
            manifestTemp = interruption.track(temp(dir, MANIFEST_FILE));
            ObjectNode manifest = manifest(account, description, info, keyOrdered, written, openedAt);
            writeSynced(manifestTemp, (DescriptionJson.text(manifest) + "\n").getBytes(StandardCharsets.UTF_8));
            Path data = dir.resolve(DATA_FILE);
            Path manifestFile = dir.resolve(MANIFEST_FILE);
            Path finalData = dataTemp;
            Path finalManifest = manifestTemp;
            interruption.finish(() -> {
                Files.deleteIfExists(manifestFile);
                rename(finalData, data);
                rename(finalManifest, manifestFile);
            });
            return new Result(description, info, keyOrdered, written.items, written.bytes, written.sha256, data,
                    manifestFile, openedAt, Duration.ofNanos(System.nanoTime() - started));
        } catch (IOException e) {
            throw new CliFailure(ExitCodes.OUTPUT, "cannot write the export to " + dir + ": " + reason(e), e);
        } catch (ItemCheck.Failed e) {
            throw new CliFailure(ExitCodes.CORRUPT_ITEM, e.getMessage() + "; export stopped, no manifest written", e);
        } finally {
            deleteQuietly(dataTemp);
            deleteQuietly(manifestTemp);
            interruption.close();
        }
    }

    private record Written(long items, long bytes, String sha256) {
    }

    private static Written writeItems(ItemStream items, Path file, Listener listener, ItemCheck check) throws IOException {
        MessageDigest sha = sha256();
        long count = 0;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            OutputStream raw = new BufferedOutputStream(Channels.newOutputStream(channel), BUFFER);
            Writer out = new BufferedWriter(new OutputStreamWriter(new DigestOutputStream(raw, sha),
                    StandardCharsets.UTF_8), BUFFER);
            while (items.hasNext()) {
                StoredItem item = items.next();
                if (check != null) {
                    check.check(item, count + 1);
                }
                String json = item.json();
                out.write(line(json, count));
                out.write('\n');
                count++;
                listener.exported(count);
            }
            out.flush();
            channel.force(true);
            return new Written(count, channel.size(), HexFormat.of().formatHex(sha.digest()));
        }
    }

    /**
     * The stored text as one line of UTF-8: as it is, except that a lone UTF-16 surrogate (which
     * UTF-8 cannot carry) is written as its JSON escape, which decodes to the same string. A raw
     * line break cannot be put on one line, so it ends the export with an error naming the item.
     */
    static String line(String json, long index) {
        int n = json.length();
        for (int i = 0; i < n; i++) {
            char c = json.charAt(i);
            if (c == '\n' || c == '\r') {
                throw StorageException.internal("stored item " + (index + 1)
                        + " contains a raw line break and cannot be written as one JSON line", null);
            }
            if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(json.charAt(i + 1))) {
                    i++;
                } else {
                    return escapeLoneSurrogates(json);
                }
            }
        }
        return json;
    }

    private static String escapeLoneSurrogates(String json) {
        StringBuilder b = new StringBuilder(json.length() + 16);
        int n = json.length();
        for (int i = 0; i < n; i++) {
            char c = json.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(json.charAt(i + 1))) {
                b.append(c).append(json.charAt(++i));
            } else if (Character.isSurrogate(c)) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    private static ObjectNode manifest(String account, TableDescription description, SnapshotInfo info,
                                       boolean keyOrdered, Written written, Instant openedAt) {
        ObjectNode m = DescriptionJson.MAPPER.createObjectNode();
        m.put("format", FORMAT);
        m.put("account", account);
        m.put("tableName", description.tableName());
        m.put("dataFile", DATA_FILE);
        m.put("itemCount", written.items);
        m.put("bytes", written.bytes);
        m.put("sha256", written.sha256);
        m.put("keyOrdered", keyOrdered);
        m.putObject("snapshot").put("kind", info.kind()).put("marker", info.marker())
                .put("openedAt", openedAt.toString());
        m.set("table", DescriptionJson.of(description, false));
        return m;
    }

    /** {@code .items.jsonl-<pid>-<n>.tmp}: the pid tells a later export whether the writer is gone. */
    private static final Pattern TEMP = Pattern.compile("\\.(?:" + Pattern.quote(DATA_FILE) + "|"
            + Pattern.quote(MANIFEST_FILE) + ")-(?:(\\d+)-)?\\d+\\.tmp");

    private static Path temp(Path dir, String name) {
        try {
            return Files.createTempFile(dir, "." + name + "-" + ProcessHandle.current().pid() + "-", ".tmp");
        } catch (IOException e) {
            throw new CliFailure(ExitCodes.OUTPUT, "cannot write to output directory " + dir + ": " + reason(e), e);
        }
    }

    /**
     * Removes temp files of this naming left in {@code dir} by an export that is gone (killed): those
     * whose pid is no live process, and those of the earlier naming without a pid. A live export's temp
     * files are left alone. Returns the names removed.
     */
    static List<String> removeStaleTemps(Path dir) {
        List<String> removed = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, ".*.tmp")) {
            for (Path file : files) {
                Matcher m = TEMP.matcher(file.getFileName().toString());
                if (!m.matches() || !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                    continue;
                }
                boolean gone = m.group(1) == null || ProcessHandle.of(Long.parseLong(m.group(1)))
                        .map(h -> !h.isAlive()).orElse(true);
                if (gone && Files.deleteIfExists(file)) {
                    removed.add(file.getFileName().toString());
                }
            }
        } catch (IOException | NumberFormatException e) {
            // A directory we cannot list or clean is reported by the export's own writes.
        }
        return removed;
    }

    /**
     * What SIGINT/SIGTERM do while an export runs: a shutdown hook removes its temp files and prints one
     * line. The final renames run under the same lock, so the hook either sees them done (and removes
     * nothing) or prevents them.
     */
    private static final class Interruption implements AutoCloseable {
        private final Path dir;
        private final List<Path> temps = new ArrayList<>();
        private final Thread hook;
        private boolean finished;
        private boolean interrupted;

        Interruption(Path dir) {
            this.dir = dir;
            this.hook = new Thread(this::interrupt, "stillpoint-export-interrupted");
            Runtime.getRuntime().addShutdownHook(hook);
        }

        synchronized Path track(Path temp) {
            temps.add(temp);
            return temp;
        }

        interface Renames {
            void run() throws IOException;
        }

        void finish(Renames renames) throws IOException {
            synchronized (this) {
                if (interrupted) {
                    throw new IOException("interrupted");
                }
                renames.run();
                finished = true;
            }
        }

        private synchronized void interrupt() {
            if (finished) {
                return;
            }
            interrupted = true;
            int removed = 0;
            for (Path temp : temps) {
                try {
                    if (Files.deleteIfExists(temp)) {
                        removed++;
                    }
                } catch (IOException ignored) {
                    // Left for the next export's stale sweep.
                }
            }
            System.err.println("stillpoint export: interrupted; removed " + removed + " temporary file"
                    + (removed == 1 ? "" : "s") + " from " + dir + ", no manifest written");
            System.err.flush();
        }

        @Override
        public void close() {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // The hook is running or has run: nothing to undo.
            }
        }
    }

    private static void writeSynced(Path file, byte[] bytes) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            java.nio.ByteBuffer buffer = java.nio.ByteBuffer.wrap(bytes);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            channel.force(true);
        }
    }

    private static void rename(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static void deleteQuietly(Path file) {
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // A temporary file we could not remove; its dot name keeps it out of the way.
            }
        }
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }

    /** The I/O failure in words (the file system's, not a Java class name [R6]). */
    private static String reason(IOException e) {
        String what = e instanceof java.nio.file.NoSuchFileException ? "no such file or directory"
                : e instanceof java.nio.file.AccessDeniedException ? "permission denied"
                : e instanceof java.nio.file.FileAlreadyExistsException ? "already exists"
                : e instanceof java.nio.file.DirectoryNotEmptyException ? "directory not empty"
                : e instanceof java.nio.file.NotDirectoryException ? "not a directory"
                : "I/O error";
        return e.getMessage() == null ? what : what + ": " + e.getMessage();
    }
}
