package dev.stillpoint.backup;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.in.SnapshotInfo;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;
import java.util.zip.GZIPOutputStream;

/**
 * DynamoDB's DYNAMODB_JSON export layout, as its "table export output format" documents it [E2]:
 * {@value #SUMMARY} (version, exportArn, tableArn, tableId, exportTime = the instant read just before
 * the snapshot opened, itemCount, billedSizeBytes = the exported items' JSON uncompressed, outputFormat ...), {@value #FILES} (one JSON line per data file:
 * itemCount, md5Checksum (base64), etag (hex MD5, as S3 gives a single-part upload), dataFileS3Key), and
 * the gzipped data files under {@value #DATA_DIR}/, each line {@code {"Item": <the stored item>}}.
 * {@code .checksum} files beside both manifests hold their hex MD5. Paths in the manifests are relative
 * to the output directory, where DynamoDB's are relative to the bucket's export prefix. At {@code -j N} [B3]
 * each segment writes its own data files (a new one every {@code itemsPerFile} items), listed lowest key
 * range first.
 */
final class DynamoDbLayout implements LayoutWriter {
    static final String SUMMARY = "manifest-summary.json";
    static final String FILES = "manifest-files.json";
    /** The MD5 of {@value #SUMMARY}, in hex. */
    static final String SUMMARY_CHECKSUM = "manifest-summary.checksum";
    /** The MD5 of {@value #FILES}, in hex. */
    static final String FILES_CHECKSUM = "manifest-files.checksum";
    /** A data file's name: {@link #newExportId}, then the file's number ({@link #dataFileName}). */
    static final Pattern DATA_FILE_NAME = Pattern.compile("\\d{14}-[0-9a-f]{8}-\\d{5}\\.json\\.gz");
    static final String DATA_DIR = "data";
    static final String VERSION = "2020-06-30";
    static final String OUTPUT_FORMAT = "DYNAMODB_JSON";
    /**
     * Our member of the summary: the snapshot's kind and marker [L5], which DynamoDB's summary has no field
     * for. A restore records the marker with the table, so an incremental export starting at it can be
     * applied [I3]; a reader of DynamoDB's layout ignores a member it does not know.
     */
    static final String SNAPSHOT = "stillpointSnapshot";

    private static final int BUFFER = 1 << 16;
    private static final byte[] PREFIX = "{\"Item\":".getBytes(StandardCharsets.UTF_8);
    private static final byte[] SUFFIX = "}\n".getBytes(StandardCharsets.UTF_8);

    /** One data file being written or done. */
    private static final class DataFile {
        final String name;
        final Path temp;
        final MessageDigest md5 = TableExport.digest("MD5");
        FileChannel channel;
        OutputStream out;
        long items;
        long bytes;

        DataFile(String name, Path temp) throws IOException {
            this.name = name;
            this.temp = temp;
            this.channel = FileChannel.open(temp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
            this.out = new GZIPOutputStream(new DigestOutputStream(
                    new BufferedOutputStream(Channels.newOutputStream(channel), BUFFER), md5), BUFFER);
        }

        void finish() throws IOException {
            out.close(); // writes the gzip trailer and flushes through the digest
            bytes = Files.size(temp);
            try (FileChannel sync = FileChannel.open(temp, StandardOpenOption.WRITE)) {
                sync.force(true);
            }
        }
    }

    /** One segment's files: a new one begins every {@code itemsPerFile} items. */
    private final class SegmentFiles implements Lane {
        final List<DataFile> files = new ArrayList<>();
        DataFile current;
        /** The segment's items' JSON, uncompressed: its share of the manifest's billedSizeBytes. */
        long itemBytes;

        SegmentFiles() throws IOException {
            current = next(files);
        }

        @Override
        public String where(long position) {
            long line = current.items == itemsPerFile ? 1 : current.items + 1;
            String name = current.items == itemsPerFile ? "the next data file" : DATA_DIR + "/" + current.name;
            return "line " + line + " of " + name;
        }

        @Override
        public void write(byte[] itemJson) throws IOException {
            if (current.items == itemsPerFile) {
                current.finish();
                current = next(files);
            }
            current.out.write(PREFIX);
            current.out.write(itemJson);
            current.out.write(SUFFIX);
            current.items++;
            itemBytes += itemJson.length;
        }

        @Override
        public void endData() throws IOException {
            current.finish();
        }
    }

    private final Path dir;
    private final Path dataDir;
    private final ExportTemps temps;
    private final int itemsPerFile;
    private final String exportId;

    /** An export's id, as DynamoDB's look: the time in milliseconds and a random part, e.g. {@code 01796615427260-4ed22df8}. */
    static String newExportId() {
        return String.format("%014d-%08x", System.currentTimeMillis(), ThreadLocalRandom.current().nextInt());
    }

    /** The name of data file {@code number} of export {@code exportId} (matches {@link #DATA_FILE_NAME}). */
    static String dataFileName(String exportId, int number) {
        return exportId + "-" + String.format("%05d", number) + ".json.gz";
    }
    private final List<SegmentFiles> segments = new ArrayList<>();
    /** Data files made so far, of every segment: the next file's number (segments make theirs concurrently). */
    private final java.util.concurrent.atomic.AtomicInteger made = new java.util.concurrent.atomic.AtomicInteger();

    DynamoDbLayout(Path dir, ExportTemps temps, int itemsPerFile, int segments) throws IOException {
        this.dir = dir;
        this.dataDir = temps.directory(dir.resolve(DATA_DIR));
        this.temps = temps;
        this.itemsPerFile = itemsPerFile;
        // DynamoDB's shape of an export id: 14 digits of epoch millis, a dash, 8 hex digits.
        this.exportId = newExportId();
        for (int i = 0; i < segments; i++) {
            this.segments.add(new SegmentFiles());
        }
    }

    /** A new data file appended to {@code files}; numbered in the order files are made, across segments. */
    private DataFile next(List<DataFile> files) throws IOException {
        String name = dataFileName(exportId, made.getAndIncrement());
        DataFile file = new DataFile(name, temps.create(dataDir, name));
        files.add(file);
        return file;
    }

    @Override
    public Lane lane(int index) {
        return segments.get(index);
    }

    @Override
    public Written commit(String account, TableDescription description, SnapshotInfo info, boolean keyOrdered,
                          Instant openedAt) throws IOException {
        StringBuilder lines = new StringBuilder();
        long items = 0;
        long bytes = 0;
        List<Path> finals = new ArrayList<>();
        long itemBytes = 0;
        // Lowest key range first, each segment's files in the order written: the files' order is key order.
        List<DataFile> files = new ArrayList<>();
        for (SegmentFiles segment : segments) {
            files.addAll(segment.files);
            itemBytes += segment.itemBytes;
        }
        for (DataFile f : files) {
            byte[] md5 = f.md5.digest();
            ObjectNode line = DescriptionJson.MAPPER.createObjectNode()
                    .put("itemCount", f.items)
                    .put("md5Checksum", Base64.getEncoder().encodeToString(md5))
                    .put("etag", HexFormat.of().formatHex(md5))
                    .put("dataFileS3Key", DATA_DIR + "/" + f.name);
            lines.append(DescriptionJson.COMPACT.writeValueAsString(line)).append('\n');
            items += f.items;
            bytes += f.bytes;
            finals.add(dataDir.resolve(f.name));
        }
        byte[] filesBytes = lines.toString().getBytes(StandardCharsets.UTF_8);
        ObjectNode s = DescriptionJson.MAPPER.createObjectNode();
        s.put("version", VERSION);
        s.put("exportArn", description.tableArn() + "/export/" + exportId);
        s.put("startTime", openedAt.toString());
        s.put("endTime", Instant.now().toString());
        s.put("tableArn", description.tableArn());
        s.put("tableId", description.tableId());
        s.put("exportTime", openedAt.toString());
        s.putNull("s3Bucket");
        s.putNull("s3Prefix");
        s.putNull("s3SseAlgorithm");
        s.putNull("s3SseKmsKeyId");
        s.put("manifestFilesS3Key", FILES);
        // BilledSizeBytes is "the billable size of the table export" (DynamoDB API reference, ExportDescription:
        // https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ExportDescription.html; the field of
        // manifest-summary.json in https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/S3DataExport.Output.html):
        // a size of the table data exported, not of the gzipped objects written, which depends on how well
        // gzip compressed them. Ours: the exported items' stored JSON, uncompressed (TableSizeBytes's measure).
        s.put("billedSizeBytes", itemBytes);
        s.put("itemCount", items);
        s.put("outputFormat", OUTPUT_FORMAT);
        s.put("exportType", "FULL_EXPORT");
        s.putObject(SNAPSHOT).put("kind", info.kind()).put("marker", info.marker());
        byte[] summaryBytes = (DescriptionJson.text(s) + "\n").getBytes(StandardCharsets.UTF_8);

        Path filesTemp = written(FILES, filesBytes);
        Path filesSumTemp = written(FILES_CHECKSUM, md5Hex(filesBytes));
        Path summarySumTemp = written(SUMMARY_CHECKSUM, md5Hex(summaryBytes));
        Path summaryTemp = written(SUMMARY, summaryBytes);
        Path summary = dir.resolve(SUMMARY);
        temps.commit(() -> {
            Files.deleteIfExists(summary);
            for (DataFile f : files) {
                LayoutWriter.rename(f.temp, dataDir.resolve(f.name));
            }
            LayoutWriter.rename(filesTemp, dir.resolve(FILES));
            LayoutWriter.rename(filesSumTemp, dir.resolve(FILES_CHECKSUM));
            LayoutWriter.rename(summarySumTemp, dir.resolve(SUMMARY_CHECKSUM));
            LayoutWriter.rename(summaryTemp, summary);
        });
        return new Written(bytes, "", finals, summary);
    }

    private Path written(String name, byte[] bytes) throws IOException {
        Path temp = temps.create(dir, name);
        LayoutWriter.writeSynced(temp, bytes);
        return temp;
    }

    private static byte[] md5Hex(byte[] bytes) {
        return HexFormat.of().formatHex(TableExport.digest("MD5").digest(bytes)).getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public void closeQuietly() {
        for (DataFile f : segments.stream().flatMap(s -> s.files.stream()).toList()) {
            try {
                f.channel.close();
            } catch (IOException ignored) {
                // The temp file is removed next; nothing to keep.
            }
        }
    }
}
