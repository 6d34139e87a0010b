package dev.stillpoint.backup;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stillpoint.backup.BackupFailure.Problem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The manifests' JSON as the reader takes it: a missing or mistyped field is a FORMAT failure naming it. */
final class ManifestJson {
    static final ObjectMapper JSON = new ObjectMapper();

    /**
     * The largest manifest or checksum file read, 64 MiB: a DynamoDB export's files manifest takes about 260
     * bytes a data file, so this is a quarter of a million data files. A manifest is read whole, so a larger file
     * (or one that is not a regular file, such as a link to a device) is refused before it is read.
     */
    static final long MAX_MANIFEST_BYTES = 64L << 20;

    private ManifestJson() {
    }

    /** Refuses a manifest that is not a regular file or is larger than {@link #MAX_MANIFEST_BYTES}, naming it. */
    static void requireReadableSize(Path file) {
        try {
            if (Files.exists(file) && !Files.isRegularFile(file)) {
                throw new BackupFailure(Problem.FORMAT, file, 0, file + " is not a regular file, so it is no manifest", null);
            }
            long size = Files.exists(file) ? Files.size(file) : 0;
            if (size > MAX_MANIFEST_BYTES) {
                throw new BackupFailure(Problem.FORMAT, file, 0, file + " is " + size + " bytes, more than any manifest"
                        + " this reader takes (" + MAX_MANIFEST_BYTES + " bytes, a quarter of a million data files)", null);
            }
        } catch (IOException e) {
            throw unreadable(file, e);
        }
    }

    static JsonNode readJson(Path file) {
        requireReadableSize(file);
        try {
            JsonNode n = JSON.readTree(file.toFile());
            if (n == null || !n.isObject()) {
                throw new BackupFailure(Problem.FORMAT, file, 0, file + " is not a JSON object", null);
            }
            return n;
        } catch (JsonProcessingException e) {
            throw new BackupFailure(Problem.FORMAT, file, 0, file + " is not JSON: " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw unreadable(file, e);
        }
    }

    static List<String> readAllLines(Path file) {
        requireReadableSize(file);
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw unreadable(file, e);
        }
    }

    static String requiredText(JsonNode n, String field, Path file) {
        return requiredText(n, field, file, 0);
    }

    static String requiredText(JsonNode n, String field, Path file, long line) {
        JsonNode v = n.get(field);
        if (v == null || !v.isTextual()) {
            throw new BackupFailure(Problem.FORMAT, file, line, file + (line > 0 ? " line " + line : "") + ": field "
                    + field + " is missing or not a string", null);
        }
        return v.asText();
    }

    /**
     * The instant in {@code field} (ISO-8601, as both layouts write it), or empty when the manifest has no
     * such field; a value that is not an instant is refused naming the file, the field and the value.
     */
    static java.util.Optional<java.time.Instant> optionalInstant(JsonNode n, String field, Path file) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            return java.util.Optional.empty();
        }
        try {
            return java.util.Optional.of(java.time.Instant.parse(v.asText()));
        } catch (java.time.format.DateTimeParseException e) {
            throw new BackupFailure(Problem.FORMAT, file, 0, file + ": field " + field + " ('" + v.asText()
                    + "') is not an ISO-8601 instant", e);
        }
    }

    static long requiredCount(JsonNode n, String field, Path file) {
        return requiredCount(n, field, file, 0);
    }

    static long requiredCount(JsonNode n, String field, Path file, long line) {
        JsonNode v = n.get(field);
        if (v == null || !v.canConvertToExactIntegral() || v.asLong() < 0) {
            throw new BackupFailure(Problem.FORMAT, file, line, file + (line > 0 ? " line " + line : "") + ": field "
                    + field + " is missing or not a count", null);
        }
        return v.asLong();
    }

    static BackupFailure unreadable(Path file, IOException e) {
        return new BackupFailure(Problem.FORMAT, file, 0, "cannot read " + file + ": " + TableExport.reason(e), e);
    }
}
