package dev.stillpoint.backup;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import dev.stillpoint.backup.BackupFailure.Problem;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.request.ItemRules;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.ports.in.StoredItem;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;

/**
 * One data file of an export read to its end [E3]: gunzipped when it starts with gzip's magic bytes,
 * its bytes digested as stored, every line checked ({@link ItemCheck}), decoded as a write would
 * decode it and put to PutItem's rules against the new table's definition ({@link ItemRules#forPut}) [V2];
 * a bad line is a {@link BackupFailure} naming the file and the line, found before anything is created.
 */
final class DataFileLines {
    private static final JsonFactory LINES = ItemJsonReading.strictFactory();

    /**
     * The longest line read, in characters: 16 Mi. A 400 KB item takes about 2.4 MB of JSON at the most (each byte
     * of its strings a six-character escape), so a longer line holds no item DynamoDB accepts; it is refused once
     * this many characters are read, not held whole in memory (a hostile data file of one 600 MB line held 2.3 GB
     * of memory before this bound).
     */
    static final int MAX_LINE_CHARS = TextLines.MAX_LINE_CHARS;

    private DataFileLines() {
    }

    /**
     * What reading a file found: its lines, its bytes' digest, whether its text ends mid-line, and the first
     * line that is not an item. A bad line is kept, not thrown, until the caller has compared the digest and
     * the count with the manifest: a file damaged or cut short is the input's integrity (exit 11), whatever
     * its damaged lines look like; only an intact file's bad line is its content (exit 12) [V5].
     */
    record FileDigest(long lines, byte[] digest, boolean endsMidLine, BackupFailure firstBadLine) {

        /** Throws the first bad line, when the file had one; call after the integrity checks passed. */
        void requireItems() {
            if (firstBadLine != null) {
                throw firstBadLine;
            }
        }

        /** {@code ; the file ends mid-line (after line N), so it was cut short} when it does, else empty. */
        String cut() {
            return endsMidLine ? "; the file ends mid-line (line " + lines + " has no line break), so it was cut short" : "";
        }
    }

    /**
     * The description PutItem's rules are applied against for an input that will be restored with
     * {@code request}: the new table as CreateTable would describe it (its key, indexes and definitions).
     */
    static TableDescription rulesOf(CreateTableRequest request) {
        return request.describe("restore-check", "arn:aws:dynamodb:restore-check", Instant.EPOCH);
    }

    /**
     * Reads {@code file} (gunzipped when it starts with gzip's magic bytes), digesting its bytes as stored,
     * checking and decoding every line and putting it to the rules of {@code rules} (see {@link #rulesOf});
     * {@code wrapped} lines are DynamoDB's {@code {"Item": ...}}.
     */
    static FileDigest read(Path file, boolean wrapped, String algorithm, ExportKey key, TableDescription rules,
                           ExportReader.Placed items, int fileIndex) {
        ItemCheck check = new ItemCheck(key.schema(), key.definitions());
        return read(file, wrapped, algorithm, (text, line) -> items.accept(
                checked(wrapped ? unwrap(text, file, line) : text, file, line, check, rules), KeyDigests.place(fileIndex, line)));
    }

    /** One line's own check and use; a {@link BackupFailure} it throws is the file's first bad line. */
    interface Line {
        void accept(String text, long line);
    }

    /**
     * Reads {@code file} as {@link #read(Path, boolean, String, ExportKey, TableDescription, ExportReader.Placed, int)}
     * does, handing each line's text to {@code lines}; {@code skipBlank} passes over empty lines (DynamoDB's data
     * files may end with one), otherwise an empty line is handed over like any other.
     */
    static FileDigest read(Path file, boolean skipBlank, String algorithm, Line lines) {
        if (Files.exists(file) && !Files.isRegularFile(file)) {
            // A link to a device (/dev/zero) would be read for ever.
            throw new BackupFailure(Problem.FORMAT, file, 0, file + " is not a regular file, so it is no data file", null);
        }
        MessageDigest digest = TableExport.digest(algorithm);
        long line = 0;
        BackupFailure firstBad = null;
        LastByte last = null;
        try (InputStream raw = new BufferedInputStream(new DigestInputStream(Files.newInputStream(file), digest), 1 << 16)) {
            raw.mark(2);
            int b1 = raw.read();
            int b2 = raw.read();
            raw.reset();
            boolean gzip = b1 == 0x1f && b2 == 0x8b;
            last = new LastByte(gzip ? new GZIPInputStream(raw, 1 << 16) : raw);
            InputStream in = last;
            TextLines reader = TextLines.utf8(in);
            String text;
            while ((text = reader.next()) != null) {
                line++;
                if (reader.tooLong()) {
                    if (firstBad == null) {
                        firstBad = new BackupFailure(Problem.ITEM, file, line, file + " line " + line + " is longer than "
                                + MAX_LINE_CHARS + " characters, more than any item DynamoDB accepts takes, so it was not"
                                + " read further", null);
                    }
                    continue;
                }
                if (text.isEmpty() && skipBlank) {
                    line--; // a trailing blank line in a DynamoDB data file holds no item
                    continue;
                }
                if (firstBad != null) {
                    continue; // counted and digested only: the caller decides between integrity and content
                }
                try {
                    lines.accept(text, line);
                } catch (BackupFailure bad) {
                    firstBad = bad;
                }
            }
            raw.transferTo(java.io.OutputStream.nullOutputStream()); // anything after the gzip stream is digested too
            if (reader.notUtf8()) {
                // The text stopped decoding: the count is unknown (-1), the rest of the bytes digested, so the
                // caller still tells a damaged file (integrity) from an intact one holding bad text (content).
                in.transferTo(java.io.OutputStream.nullOutputStream());
                raw.transferTo(java.io.OutputStream.nullOutputStream());
                firstBad = new BackupFailure(Problem.ITEM, file, line + 1, file + " line " + (line + 1)
                        + " is not UTF-8 text", null);
                return new FileDigest(-1, digest.digest(), false, firstBad);
            }
        } catch (java.util.zip.ZipException | java.io.EOFException e) {
            throw new BackupFailure(Problem.INTEGRITY, file, line + 1, file + ": the gzip stream is damaged or truncated"
                    + " (after line " + line + "): " + e.getMessage(), e);
        } catch (IOException e) {
            throw ManifestJson.unreadable(file, e);
        }
        return new FileDigest(line, digest.digest(), last != null && last.endsMidLine(), firstBad);
    }

    /** The decoded stream, remembering its last byte: a text that does not end with a line break was cut. */
    private static final class LastByte extends java.io.FilterInputStream {
        private int last = -1;

        LastByte(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                last = b;
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = super.read(buffer, offset, length);
            if (n > 0) {
                last = buffer[offset + n - 1] & 0xff;
            }
            return n;
        }

        boolean endsMidLine() {
            return last >= 0 && last != '\n';
        }
    }

    static Item checked(String itemJson, Path file, long line, ItemCheck check, TableDescription rules) {
        try {
            check.check(new LineItem(itemJson), line, "line " + line + " of " + file);
        } catch (ItemCheck.Failed e) {
            // The file and line once: the check's own "item N (line N of ...)" would repeat them.
            throw new BackupFailure(Problem.ITEM, file, line, file + " line " + line + ": " + e.why(), e);
        }
        Item item;
        try {
            item = ItemJson.decode(itemJson);
        } catch (StorageException e) {
            throw new BackupFailure(Problem.ITEM, file, line, file + " line " + line + " is not an item: "
                    + e.getMessage(), e);
        }
        try {
            ItemRules.forPut(rules, item);
        } catch (StorageException e) {
            throw new BackupFailure(Problem.ITEM, file, line, file + " line " + line + ": PutItem would refuse the item: "
                    + e.getMessage(), e);
        }
        return item;
    }

    /** The item text of a DynamoDB export line: exactly {@code {"Item": {...}}}, nothing else. */
    private static String unwrap(String text, Path file, long line) {
        try (JsonParser p = LINES.createParser(text)) {
            boolean ok = p.nextToken() == JsonToken.START_OBJECT && p.nextToken() == JsonToken.FIELD_NAME
                    && "Item".equals(p.currentName()) && p.nextToken() == JsonToken.START_OBJECT;
            if (ok) {
                int start = (int) p.currentTokenLocation().getCharOffset();
                p.skipChildren();
                int end = (int) p.currentTokenLocation().getCharOffset() + 1;
                if (p.nextToken() == JsonToken.END_OBJECT && p.nextToken() == null) {
                    return text.substring(start, end);
                }
            }
        } catch (IOException e) {
            throw new BackupFailure(Problem.ITEM, file, line, file + " line " + line + " is not JSON: "
                    + (e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage()), e);
        }
        throw new BackupFailure(Problem.ITEM, file, line, file + " line " + line
                + " is not an item line: expected exactly {\"Item\": {...}}", null);
    }

    /** A line as the item check takes it: text with no stored key beside it. */
    private record LineItem(String json) implements StoredItem {
        @Override
        public Item item() {
            return ItemJson.decode(json);
        }
    }
}
