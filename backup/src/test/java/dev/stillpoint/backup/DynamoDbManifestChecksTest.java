package dev.stillpoint.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.stillpoint.backup.BackupFailure.Problem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * What a restore of a DynamoDB export checks before it reads an item [E3], beyond the data files' MD5s and
 * counts (ExportReaderTest): the manifests' own checksum files, the export's type, and that every data file
 * it reads lies inside the export. The layout, as AWS documents it: "DynamoDB creates manifest files, along
 * with their checksum files" (manifest-summary.checksum, manifest-files.checksum), and the summary's
 * exportType is FULL_EXPORT or INCREMENTAL_EXPORT
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/S3DataExport.Output.html).
 */
class DynamoDbManifestChecksTest {

    private static final ExportKey KEY = ExportReader.parseKey("pk:S,sk:N");
    private static final String A1 = "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"}}";
    private static final String A2 = "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"2\"}}";

    private static DynamoDbExportDir export(String name) {
        DynamoDbExportDir d = new DynamoDbExportDir(ExportReaderTest.scratch(name));
        d.dataFile("a.json.gz", A1, A2);
        d.manifests();
        return d;
    }

    /** Writes {@code <manifest>.checksum} beside it: the hex MD5 of the manifest's bytes, as Stillpoint writes it. */
    private static void writeChecksum(DynamoDbExportDir d, String manifest) throws IOException {
        byte[] md5 = DynamoDbExportDir.md5(Files.readAllBytes(d.exportDir.resolve(manifest + ".json")));
        Files.writeString(d.exportDir.resolve(manifest + ".checksum"), HexFormat.of().formatHex(md5) + "\n",
                StandardCharsets.US_ASCII);
    }

    /** The summary's table ARN changed behind its checksum file: an integrity failure naming the summary. */
    private static void summaryChangedIsRefused(DynamoDbExportDir d) throws IOException {
        replace(d.exportDir.resolve("manifest-summary.json"), "table/ProductCatalog\",", "table/OtherCatalog\",");
        refused(() -> ExportReader.check(d.root, "Restored", Optional.of(KEY)), Problem.INTEGRITY,
                "manifest-summary.json: MD5");
    }

    private static void replace(Path file, String from, String to) throws IOException {
        String text = Files.readString(file);
        assertThat(text).as("the test's edit applies").contains(from);
        Files.writeString(file, text.replace(from, to));
    }

    private static long itemsRead(CheckedExport export) {
        List<Object> items = new ArrayList<>();
        export.load(10, items::addAll);
        return items.size();
    }

    private static BackupFailure refused(ThrowingCallable call, Problem problem, String text) {
        Throwable t = catchThrowable(call);
        assertThat(t).as("[E3] refused with a BackupFailure").isInstanceOf(BackupFailure.class);
        BackupFailure f = (BackupFailure) t;
        assertThat(f.problem()).as(f.getMessage()).isEqualTo(problem);
        assertThat(f.getMessage()).contains(text);
        return f;
    }

    // E3: with both checksum files right the export reads; a summary changed behind its checksum file (here
    // the source table's ARN, which the restore records) is an integrity failure naming the summary.
    @Test
    void e3_aSummaryChangedBehindItsChecksumFileIsRefused() throws IOException {
        DynamoDbExportDir d = export("ddb-summary-checksum");
        writeChecksum(d, "manifest-summary");
        writeChecksum(d, "manifest-files");
        assertThat(itemsRead(ExportReader.check(d.root, "Restored", Optional.of(KEY))))
                .as("both checksum files match: the export reads").isEqualTo(2);

        summaryChangedIsRefused(d);
    }

    // E3: manifest-files.json changed behind its checksum file (a line's etag, which nothing else checks) is
    // an integrity failure naming it, before any data file is trusted on its word.
    @Test
    void e3_aFilesManifestChangedBehindItsChecksumFileIsRefused() throws IOException {
        DynamoDbExportDir d = export("ddb-files-checksum");
        writeChecksum(d, "manifest-files");
        Path files = d.exportDir.resolve("manifest-files.json");
        String etag = Files.readString(files).replaceAll("(?s).*\"etag\":\"([0-9a-f]+)\".*", "$1");

        replace(files, etag, "0".repeat(etag.length()));

        refused(() -> ExportReader.check(d.root, "Restored", Optional.of(KEY)), Problem.INTEGRITY, "manifest-files.json: MD5");
    }

    /** Writes {@code <manifest>.checksum} beside it holding {@code text} as is. */
    private static void writeChecksumText(DynamoDbExportDir d, String manifest, String text) throws IOException {
        Files.writeString(d.exportDir.resolve(manifest + ".checksum"), text, StandardCharsets.US_ASCII);
    }

    private static byte[] md5Of(DynamoDbExportDir d, String manifest) throws IOException {
        return DynamoDbExportDir.md5(Files.readAllBytes(d.exportDir.resolve(manifest + ".json")));
    }

    // E3: AWS documents the checksum files but not their encoding, and tools writing its layout disagree
    // (hex MD5, or base64 as md5Checksum holds it in manifest-files.json). A restore that read only one form
    // would refuse every export written in the other as corrupt: both forms read, in either case of hex.
    @Test
    void e3_aChecksumFileInBase64OrUppercaseHexIsRead() throws IOException {
        DynamoDbExportDir d = export("ddb-checksum-forms");
        writeChecksumText(d, "manifest-summary", Base64.getEncoder().encodeToString(md5Of(d, "manifest-summary")));
        writeChecksumText(d, "manifest-files",
                HexFormat.of().withUpperCase().formatHex(md5Of(d, "manifest-files")) + "\n");

        assertThat(itemsRead(ExportReader.check(d.root, "Restored", Optional.of(KEY))))
                .as("a base64 summary checksum and an uppercase hex files checksum match: the export reads")
                .isEqualTo(2);
    }

    // E3: a base64 checksum is checked, not merely parsed: the summary changed behind it is an integrity
    // failure, as with hex.
    @Test
    void e3_aSummaryChangedBehindABase64ChecksumIsRefused() throws IOException {
        DynamoDbExportDir d = export("ddb-checksum-base64");
        writeChecksumText(d, "manifest-summary", Base64.getEncoder().encodeToString(md5Of(d, "manifest-summary")));

        summaryChangedIsRefused(d);
    }

    // E3, R6: a checksum file in neither form (here a SHA-256) is refused as the input's format, naming the
    // file and its text and how to go on, rather than passed over or reported as corruption.
    @Test
    void e3_aChecksumFileInNeitherFormIsRefusedNamingIt() throws IOException {
        DynamoDbExportDir d = export("ddb-checksum-unknown");
        String sha256 = HexFormat.of().formatHex(TableExport.digest("SHA-256")
                .digest(Files.readAllBytes(d.exportDir.resolve("manifest-files.json"))));
        writeChecksumText(d, "manifest-files", sha256);

        BackupFailure f = refused(() -> ExportReader.check(d.root, "Restored", Optional.of(KEY)), Problem.FORMAT,
                "manifest-files.checksum holds '" + sha256 + "', which is neither a hex nor a base64 MD5");
        assertThat(f.getMessage()).contains("remove it to restore without checking manifest-files.json");
    }

    // E3: a data file manifest-files.json lists twice (the line copied, or once as "data/x" and once as a
    // link to it) is refused as the manifest's format, naming both lines, whatever --duplicates says: loading
    // it twice is never meant, and a refusal of its keys as duplicates named one line of one file as both sides.
    @Test
    void e3_aDataFileListedTwiceIsRefusedNamingBothLines() throws IOException {
        DynamoDbExportDir d = new DynamoDbExportDir(ExportReaderTest.scratch("ddb-listed-twice"));
        Path data = d.dataFile("a.json.gz", A1, A2);
        d.manifests();
        Path files = d.exportDir.resolve("manifest-files.json");
        String line = Files.readString(files).strip();
        String key = line.replaceAll(".*\"dataFileS3Key\":\"([^\"]+)\".*", "$1");
        Files.writeString(files, line + "\n" + line + "\n");
        for (ExportReader.Duplicates duplicates : ExportReader.Duplicates.values()) {
            refused(() -> ExportReader.check(d.root, "Restored", Optional.of(KEY), duplicates), Problem.FORMAT,
                    "line 2 names '" + key + "', the data file line 1 names: each is listed once");
        }

        Path link = d.exportDir.resolve("link.json.gz");
        Files.createSymbolicLink(link, data);
        Files.writeString(files, line + "\n" + line.replace(key, "link.json.gz") + "\n");
        refused(() -> ExportReader.check(d.root, "Restored", Optional.of(KEY)), Problem.FORMAT,
                "line 2 names 'link.json.gz', the data file line 1 names");
    }

    // E3: an incremental export holds changes (new and old images), not a table: restoring it as one would
    // make a table of change records. It is refused by its type, named.
    @Test
    void e3_anIncrementalExportIsRefusedNamingItsType() throws IOException {
        DynamoDbExportDir d = export("ddb-incremental");
        replace(d.exportDir.resolve("manifest-summary.json"), "\"outputFormat\":\"DYNAMODB_JSON\"",
                "\"outputFormat\":\"DYNAMODB_JSON\",\"exportType\":\"INCREMENTAL_EXPORT\"");

        refused(() -> ExportReader.check(d.root, "Restored", Optional.of(KEY)), Problem.FORMAT,
                "exportType 'INCREMENTAL_EXPORT' is not FULL_EXPORT");
    }

    // E3: a data file key climbing out of the export ("../name") is never followed, even where a file of
    // that path exists and the manifest's MD5 and count match it: a restore reads only what the export holds.
    @Test
    void e3_aDataFileNamedOutsideTheExportIsNeverRead() throws IOException {
        DynamoDbExportDir d = new DynamoDbExportDir(ExportReaderTest.scratch("ddb-outside"));
        String name = "outside-" + UUID.randomUUID() + ".json.gz";
        byte[] bytes = DynamoDbExportDir.gzip(("{\"Item\":" + A1 + "}\n").getBytes(StandardCharsets.UTF_8));
        Path outside = d.root.getParent().resolve(name);
        Files.write(outside, bytes);
        d.manifests(1); // the summary, counting the one item; manifest-files.json is written next
        Files.writeString(d.exportDir.resolve("manifest-files.json"), "{\"itemCount\":1,\"md5Checksum\":\""
                + Base64.getEncoder().encodeToString(DynamoDbExportDir.md5(bytes)) + "\",\"etag\":\"x\","
                + "\"dataFileS3Key\":\"../" + name + "\"}\n");

        refused(() -> ExportReader.check(d.root, "Restored", Optional.of(KEY)), Problem.FORMAT,
                "names '../" + name + "', which is not in");
    }
    // E3, R6: a manifest is read whole, so one larger than any export writes, or one that is not a regular file
    // (a link to a device), is refused as the input's format before it is read, naming the file. Found from
    // outside with a hostile data file (one 600 MB line); the manifests had the same unbounded read.
    @Test
    void e3_aManifestTooLargeOrNotARegularFileIsRefusedBeforeItIsRead() throws IOException {
        DynamoDbExportDir big = export("ddb-manifest-big");
        Path files = big.exportDir.resolve("manifest-files.json");
        try (var raf = new java.io.RandomAccessFile(files.toFile(), "rw")) {
            raf.setLength(ManifestJson.MAX_MANIFEST_BYTES + 1); // sparse: nothing of it is written
        }
        refused(() -> ExportReader.check(big.root, "Restored", Optional.of(KEY)), Problem.FORMAT,
                "manifest-files.json is " + (ManifestJson.MAX_MANIFEST_BYTES + 1) + " bytes, more than any manifest");

        DynamoDbExportDir device = export("ddb-manifest-device");
        Path summary = device.exportDir.resolve("manifest-summary.json");
        Files.delete(summary);
        Files.createSymbolicLink(summary, Path.of("/dev/zero"));
        refused(() -> ExportReader.check(device.root, "Restored", Optional.of(KEY)), Problem.FORMAT,
                "manifest-summary.json is not a regular file");
    }
}
