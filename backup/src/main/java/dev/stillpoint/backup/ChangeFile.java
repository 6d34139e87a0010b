package dev.stillpoint.backup;

import dev.stillpoint.ports.in.ChangeSink;
import dev.stillpoint.ports.in.ChangeWindow;
import dev.stillpoint.ports.in.LoggedChange;
import java.io.BufferedOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.HexFormat;
import java.util.function.BiFunction;
import java.util.zip.GZIPOutputStream;

/**
 * The data file of an incremental export, written as the change log's read streams the window [I2, S7]:
 * each change's line goes through the file's digest (of the bytes as stored, after gzip where asked) into
 * its temp file at once, so the export holds one line, not the window. The lines' shape is the layout's,
 * chosen once the window is known ({@link #begin}); the counts and the digest are read after
 * {@link #finish()}, which syncs the file.
 */
final class ChangeFile implements ChangeSink {

    /** A layout's line for one change, line break included, in UTF-8. */
    interface LineFormat {
        byte[] line(LoggedChange change);
    }

    private final Path temp;
    private final boolean gzip;
    private final MessageDigest digest;
    private final BiFunction<ChangeWindow, Instant, LineFormat> format;
    private ChangeWindow window;
    private Instant begunAt;
    private LineFormat lines;
    private FileOutputStream file;
    private OutputStream out;
    private long puts;
    private long tombstones;
    private long lineBytes;

    /**
     * @param temp the temp file the data goes to (created, empty)
     * @param gzip whether the file is gzipped
     * @param digest the digest of the file's bytes
     * @param format the layout's lines for the window read at an instant, or a refusal (a view the log cannot
     *     give) before any line
     */
    ChangeFile(Path temp, boolean gzip, MessageDigest digest, BiFunction<ChangeWindow, Instant, LineFormat> format) {
        this.temp = temp;
        this.gzip = gzip;
        this.digest = digest;
        this.format = format;
    }

    @Override
    public void begin(ChangeWindow opened) {
        window = opened;
        // Read just after the window's snapshot: every write in it committed before this instant [I3].
        begunAt = Instant.now();
        lines = format.apply(opened, begunAt);
        try {
            file = new FileOutputStream(temp.toFile());
            OutputStream stored = new DigestOutputStream(new BufferedOutputStream(file, 1 << 16), digest);
            out = gzip ? new GZIPOutputStream(stored, 1 << 16) : stored;
        } catch (IOException e) {
            throw failure(e);
        }
    }

    @Override
    public void change(LoggedChange change) {
        byte[] line = lines.line(change);
        try {
            out.write(line);
        } catch (IOException e) {
            throw failure(e);
        }
        lineBytes += line.length;
        if (change.tombstone()) {
            tombstones++;
        } else {
            puts++;
        }
    }

    /** Ends the data (gzip's trailer included) and syncs it to disk. */
    void finish() throws IOException {
        if (out instanceof GZIPOutputStream gz) {
            gz.finish();
        }
        out.flush();
        // Synced before the close: closing the streams closes the file's channel.
        file.getChannel().force(true);
        out.close();
    }

    /** Closes the file after a failure; its temp is removed by the export's {@link ExportTemps}. */
    void closeQuietly() {
        try {
            if (out != null) {
                out.close();
            } else if (file != null) {
                file.close();
            }
        } catch (IOException ignored) {
            // The export already failed; the temp goes with the others.
        }
    }

    ChangeWindow window() {
        return window;
    }

    /** When the window was read: just after its end snapshot. */
    Instant begunAt() {
        return begunAt;
    }

    long puts() {
        return puts;
    }

    long tombstones() {
        return tombstones;
    }

    /** The lines' bytes before any gzip, line breaks included. */
    long lineBytes() {
        return lineBytes;
    }

    /** The digest of the file's bytes, once finished. */
    byte[] digest() {
        return digest.digest();
    }

    static String hex(byte[] digest) {
        return HexFormat.of().formatHex(digest);
    }

    private BackupFailure failure(IOException e) {
        return new BackupFailure(BackupFailure.Problem.OUTPUT, "cannot write the incremental export's data file "
                + temp + ": " + TableExport.reason(e), e);
    }
}
