package dev.stillpoint.backup;

import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.in.SnapshotInfo;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;

/**
 * One export layout's writing: item lines into temp files, then the manifest and the renames. The lines go
 * through {@link Lane}s: one for a single-stream export, one per segment for {@code export -j N} [B3], each
 * written by one thread of its own; {@link #commit} runs once every lane has ended.
 */
interface LayoutWriter {

    /** What the layout wrote once committed. */
    record Written(long bytes, String sha256, List<Path> dataFiles, Path manifest) {
    }

    /** One segment's data file(s): written by one thread, in the segment's order. */
    interface Lane {
        /** Where the lane's item {@code position} (from 1) goes, for a message naming it: "line N of FILE". */
        String where(long position);

        /** Appends one item line (without its line break) in UTF-8. */
        void write(byte[] itemJson) throws IOException;

        /** Every item of the lane written: flushes and syncs its data. */
        void endData() throws IOException;
    }

    /**
     * Lane {@code index}, from 0 up to the count the layout was made with.
     *
     * @param index the segment's index
     * @return its lane
     */
    Lane lane(int index);

    /** Writes the manifest(s) and renames every temp file to its final name, the completing manifest last. */
    Written commit(String account, TableDescription description, SnapshotInfo info, boolean keyOrdered,
                   Instant openedAt) throws IOException;

    /** Closes open files after a failure (their temps are removed by {@link ExportTemps}). */
    void closeQuietly();

    static void writeSynced(Path file, byte[] bytes) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            channel.force(true);
        }
    }

    static void rename(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
