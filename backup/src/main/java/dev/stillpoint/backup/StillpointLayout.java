package dev.stillpoint.backup;

import com.fasterxml.jackson.databind.node.ArrayNode;
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
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Our layout. One stream: {@value #DATA_FILE} (one item per line) and {@value #MANIFEST_FILE} of format
 * {@value #FORMAT} (the description, the snapshot's kind and marker, keyOrdered, the item count and the data
 * file's sha256), exactly as before segments existed. N segments ({@code export -j N}, N > 1) [B3]: one data
 * file per segment, {@code items-00000.jsonl} up, lowest key range first, and a manifest of format
 * {@value #FORMAT_SEGMENTED} listing them in {@code dataFiles} (each with its itemCount, bytes and sha256) beside
 * the total itemCount and bytes. The new format name makes a build that reads only one file refuse such an
 * export by its format instead of restoring part of it.
 */
final class StillpointLayout implements LayoutWriter {
    static final String DATA_FILE = "items.jsonl";
    static final String MANIFEST_FILE = "manifest.json";
    static final String FORMAT = "stillpoint-export/1";
    static final String FORMAT_SEGMENTED = "stillpoint-export/2";

    private static final int BUFFER = 1 << 16;

    /**
     * The data file of segment {@code index} of an export of several.
     *
     * @param index the segment, from 0
     * @return its file's name
     */
    static String segmentFile(int index) {
        return String.format("items-%05d.jsonl", index);
    }

    /** The names {@link #segmentFile} gives. */
    static final Pattern SEGMENT_FILE_NAME = Pattern.compile("items-\\d{5}\\.jsonl");

    /** One data file: lines gathered into one large write and one digest update each (no char encoder). */
    private final class DataFile implements Lane {
        final String name;
        final Path temp;
        final FileChannel channel;
        final MessageDigest sha = TableExport.sha256();
        final ByteBuffer buffer = ByteBuffer.allocate(BUFFER);
        long items;

        DataFile(String name) throws IOException {
            this.name = name;
            this.temp = temps.create(dir, name);
            this.channel = FileChannel.open(temp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
        }

        @Override
        public String where(long position) {
            return "line " + position + " of " + name;
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
    }

    private final Path dir;
    private final ExportTemps temps;
    private final List<DataFile> files = new ArrayList<>();

    StillpointLayout(Path dir, ExportTemps temps, int segments) throws IOException {
        this.dir = dir;
        this.temps = temps;
        for (int i = 0; i < segments; i++) {
            files.add(new DataFile(segments == 1 ? DATA_FILE : segmentFile(i)));
        }
    }

    @Override
    public Lane lane(int index) {
        return files.get(index);
    }

    @Override
    public Written commit(String account, TableDescription description, SnapshotInfo info, boolean keyOrdered,
                          Instant openedAt) throws IOException {
        long bytes = 0;
        long items = 0;
        List<String> digests = new ArrayList<>();
        ArrayNode listed = DescriptionJson.MAPPER.createArrayNode();
        for (DataFile f : files) {
            long size = f.channel.size();
            f.channel.close();
            String digest = HexFormat.of().formatHex(f.sha.digest());
            digests.add(digest);
            listed.addObject().put("file", f.name).put("itemCount", f.items).put("bytes", size).put("sha256", digest);
            bytes += size;
            items += f.items;
        }
        boolean one = files.size() == 1;
        ObjectNode m = DescriptionJson.MAPPER.createObjectNode();
        m.put("format", one ? FORMAT : FORMAT_SEGMENTED);
        m.put("account", account);
        m.put("tableName", description.tableName());
        if (one) {
            m.put("dataFile", DATA_FILE);
        } else {
            m.set("dataFiles", listed);
        }
        m.put("itemCount", items);
        m.put("bytes", bytes);
        if (one) {
            m.put("sha256", digests.get(0));
        }
        m.put("keyOrdered", keyOrdered);
        m.putObject("snapshot").put("kind", info.kind()).put("marker", info.marker())
                .put("openedAt", openedAt.toString());
        m.set("table", DescriptionJson.of(description, false));
        Path manifestTemp = temps.create(dir, MANIFEST_FILE);
        LayoutWriter.writeSynced(manifestTemp, (DescriptionJson.text(m) + "\n").getBytes(StandardCharsets.UTF_8));
        Path manifest = dir.resolve(MANIFEST_FILE);
        List<Path> finals = files.stream().map(f -> dir.resolve(f.name)).toList();
        temps.commit(() -> {
            Files.deleteIfExists(manifest);
            for (DataFile f : files) {
                LayoutWriter.rename(f.temp, dir.resolve(f.name));
            }
            LayoutWriter.rename(manifestTemp, manifest);
        });
        return new Written(bytes, one ? digests.get(0) : "", finals, manifest);
    }

    @Override
    public void closeQuietly() {
        for (DataFile f : files) {
            try {
                f.channel.close();
            } catch (IOException ignored) {
                // The temp file is removed next; nothing to keep.
            }
        }
    }
}
