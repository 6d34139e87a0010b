package dev.stillpoint.backup;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.in.SnapshotInfo;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;

/**
 * Our layout: {@value #DATA_FILE} (one item per line) and {@value #MANIFEST_FILE} (the description, the
 * snapshot's kind and marker, keyOrdered, the item count and the data file's sha256).
 */
final class StillpointLayout implements LayoutWriter {
    static final String DATA_FILE = "items.jsonl";
    static final String MANIFEST_FILE = "manifest.json";
    static final String FORMAT = "stillpoint-export/1";

    private static final int BUFFER = 1 << 16;

    private final Path dir;
    private final ExportTemps temps;
    private final Path dataTemp;
    private final FileChannel channel;
    private final MessageDigest sha = TableExport.sha256();
    /** Lines gathered into one large write and one digest update each (no char encoder, no stream chain). */
    private final ByteBuffer buffer = ByteBuffer.allocate(BUFFER);
    private long items;

    StillpointLayout(Path dir, ExportTemps temps) throws IOException {
        this.dir = dir;
        this.temps = temps;
        this.dataTemp = temps.create(dir, DATA_FILE);
        this.channel = FileChannel.open(dataTemp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
    }

    @Override
    public String where(long position) {
        return "line " + position + " of " + DATA_FILE;
    }

    @Override
    public void write(byte[] line) throws IOException {
        if (line.length + 1 > buffer.remaining()) {
            drain();
        }
        if (line.length + 1 > buffer.remaining()) {
            sha.update(line);
            write(ByteBuffer.wrap(line));
        } else {
            buffer.put(line);
        }
        buffer.put((byte) '\n');
        items++;
    }

    /** Digests and writes what the buffer holds. */
    private void drain() throws IOException {
        buffer.flip();
        sha.update(buffer.array(), 0, buffer.limit());
        write(buffer);
        buffer.clear();
    }

    private void write(ByteBuffer bytes) throws IOException {
        while (bytes.hasRemaining()) {
            channel.write(bytes);
        }
    }

    @Override
    public void endData() throws IOException {
        drain();
        channel.force(true);
    }

    @Override
    public Written commit(String account, TableDescription description, SnapshotInfo info, boolean keyOrdered,
                          Instant openedAt) throws IOException {
        long bytes = channel.size();
        channel.close();
        String digest = HexFormat.of().formatHex(sha.digest());
        ObjectNode m = DescriptionJson.MAPPER.createObjectNode();
        m.put("format", FORMAT);
        m.put("account", account);
        m.put("tableName", description.tableName());
        m.put("dataFile", DATA_FILE);
        m.put("itemCount", items);
        m.put("bytes", bytes);
        m.put("sha256", digest);
        m.put("keyOrdered", keyOrdered);
        m.putObject("snapshot").put("kind", info.kind()).put("marker", info.marker())
                .put("openedAt", openedAt.toString());
        m.set("table", DescriptionJson.of(description, false));
        Path manifestTemp = temps.create(dir, MANIFEST_FILE);
        LayoutWriter.writeSynced(manifestTemp, (DescriptionJson.text(m) + "\n").getBytes(StandardCharsets.UTF_8));
        Path data = dir.resolve(DATA_FILE);
        Path manifest = dir.resolve(MANIFEST_FILE);
        temps.commit(() -> {
            Files.deleteIfExists(manifest);
            LayoutWriter.rename(dataTemp, data);
            LayoutWriter.rename(manifestTemp, manifest);
        });
        return new Written(bytes, digest, List.of(data), manifest);
    }

    @Override
    public void closeQuietly() {
        try {
            channel.close();
        } catch (IOException ignored) {
            // The temp file is removed next; nothing to keep.
        }
    }
}
