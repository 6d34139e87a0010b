package dev.stillpoint.backup;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.GZIPOutputStream;

/**
 * Builds a DynamoDB export directory as AWS's "DynamoDB table export output format" page documents it,
 * the way it lands when copied from S3: {@code <prefix>/AWSDynamoDB/<ExportId>/manifest-summary.json},
 * {@code manifest-files.json} (one JSON line per data file: itemCount, md5Checksum (base64 MD5 of the
 * object), etag, dataFileS3Key relative to the prefix) and {@code data/<name>.json.gz}, gzipped lines of
 * {@code {"Item":{...}}}. Tests then damage it on purpose.
 */
final class DynamoDbExportDir {
    static final String EXPORT_ID = "01693685827463-2d8752fd";

    final Path root;
    final Path exportDir;
    private final List<String> fileLines = new ArrayList<>();
    private long total;

    DynamoDbExportDir(Path root) {
        this.root = root;
        this.exportDir = root.resolve("AWSDynamoDB").resolve(EXPORT_ID);
        try {
            Files.createDirectories(exportDir.resolve("data"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A gzipped data file of these item texts, listed in manifest-files.json with its count and MD5. */
    Path dataFile(String name, String... items) {
        StringBuilder text = new StringBuilder();
        for (String item : items) {
            text.append("{\"Item\":").append(item).append("}\n");
        }
        return dataFileOfBytes(name, gzip(text.toString().getBytes(StandardCharsets.UTF_8)), items.length);
    }

    /** A data file of exactly these bytes, listed with {@code count} items and their MD5. */
    Path dataFileOfBytes(String name, byte[] bytes, long count) {
        Path file = exportDir.resolve("data").resolve(name);
        try {
            Files.write(file, bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        byte[] md5 = md5(bytes);
        fileLines.add("{\"itemCount\":" + count + ",\"md5Checksum\":\"" + Base64.getEncoder().encodeToString(md5)
                + "\",\"etag\":\"" + HexFormat.of().formatHex(md5) + "\",\"dataFileS3Key\":\"AWSDynamoDB/" + EXPORT_ID
                + "/data/" + name + "\"}");
        total += count;
        return file;
    }

    /** Writes both manifests; the summary's itemCount is the files' total unless {@code itemCount} overrides it. */
    DynamoDbExportDir manifests() {
        return manifests(total);
    }

    DynamoDbExportDir manifests(long itemCount) {
        try {
            Files.writeString(exportDir.resolve("manifest-files.json"), String.join("\n", fileLines) + "\n");
            Files.writeString(exportDir.resolve("manifest-summary.json"), "{\"version\":\"2020-06-30\","
                    + "\"exportArn\":\"arn:aws:dynamodb:us-east-1:123456789012:table/ProductCatalog/export/" + EXPORT_ID + "\","
                    + "\"startTime\":\"2020-11-04T07:28:34.028Z\",\"endTime\":\"2020-11-04T07:33:43.897Z\","
                    + "\"tableArn\":\"arn:aws:dynamodb:us-east-1:123456789012:table/ProductCatalog\","
                    + "\"tableId\":\"12345a12-abcd-123a-ab12-1234abc12345\",\"exportTime\":\"2020-11-04T07:28:34.028Z\","
                    + "\"s3Bucket\":\"ddb-productcatalog-export\",\"s3Prefix\":\"2020-Nov\",\"s3SseAlgorithm\":\"AES256\","
                    + "\"s3SseKmsKeyId\":null,\"manifestFilesS3Key\":\"AWSDynamoDB/" + EXPORT_ID + "/manifest-files.json\","
                    + "\"billedSizeBytes\":0,\"itemCount\":" + itemCount + ",\"outputFormat\":\"DYNAMODB_JSON\"}");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    static byte[] gzip(byte[] bytes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    static byte[] md5(byte[] bytes) {
        try {
            return MessageDigest.getInstance("MD5").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
