package dev.stillpoint.backup;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.ports.in.ChangeLogReads;
import dev.stillpoint.ports.in.LoggedChange;
import dev.stillpoint.ports.in.TableChanges;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * An incremental export in our layout [I2]: the changes of a table committed after the snapshot a marker
 * names and visible in a new snapshot, as {@value #DATA_FILE} (one change a line: {@code {"Keys":..,
 * "NewImage":..}} for a put, {@code {"Keys":..}} for a tombstone, each with {@code "OldImage":..} where the
 * table's log keeps it and the key had an item at the start; DynamoDB's incremental line shape without its
 * write-time metadata) and {@value #MANIFEST} naming both markers ({@code since}, {@code until}), the counts
 * and the data file's SHA-256. Applying the lines to the full export at {@code since} gives the full export
 * at {@code until}, item for item. Files are written as temps and renamed into place, the manifest last,
 * as a full export's are; a refused marker [I4] writes nothing.
 */
public final class ChangesExport {

    /** The data file: one change per line. */
    public static final String DATA_FILE = "changes.jsonl";
    /** The manifest, our layout's name, so a directory holds one export of either kind. */
    public static final String MANIFEST = StillpointLayout.MANIFEST_FILE;
    /** The manifest's format; a restore of a full export refuses it by this name. */
    public static final String FORMAT = "stillpoint-changes/1";

    private ChangesExport() {
    }

    /**
     * What an incremental export wrote.
     *
     * @param changes the window read (both markers, the description at the end)
     * @param puts lines with a new image
     * @param tombstones lines without one
     * @param bytes the data file's size
     * @param sha256 hex SHA-256 of the data file
     * @param dataFile the data file
     * @param manifestFile the manifest, renamed into place last
     * @param elapsed how long the export took
     */
    public record Result(TableChanges changes, long puts, long tombstones, long bytes, String sha256, Path dataFile,
                         Path manifestFile, Duration elapsed) {
    }

    /**
     * Writes the changes of {@code table} since {@code sinceMarker} into {@code dir}, prepared as a full
     * export's directory is ({@link TableExport#prepareOutput}).
     *
     * @param reads the backend's change log reads
     * @param account the account the table belongs to
     * @param table the table's name
     * @param sinceMarker the marker of the full export (or earlier window) this one starts after
     * @param dir the output directory
     * @param temps the export's temporary files
     * @return what was written
     * @throws dev.stillpoint.domain.error.StorageException as the reads throw it: VALIDATION naming a
     *     marker that starts no window of this table's log [I4], UNSUPPORTED on a backend without one
     * @throws BackupFailure OUTPUT when a file cannot be written
     */
    public static Result export(ChangeLogReads reads, String account, String table, String sinceMarker, Path dir,
                                ExportTemps temps) {
        long started = System.nanoTime();
        TableExport.prepareOutput(dir);
        ExportTemps.removeStale(dir);
        TableChanges changes = reads.changesSince(account, table, sinceMarker);
        try {
            return write(changes, account, dir, temps, started);
        } catch (IOException e) {
            temps.removeLeftovers();
            throw new BackupFailure(BackupFailure.Problem.OUTPUT, "cannot write the incremental export of table '"
                    + table + "' to " + dir + ": " + TableExport.reason(e), e);
        } catch (RuntimeException e) {
            temps.removeLeftovers();
            throw e;
        }
    }

    private static Result write(TableChanges changes, String account, Path dir, ExportTemps temps, long started)
            throws IOException {
        TableDescription description = changes.description();
        MessageDigest sha = TableExport.sha256();
        StringBuilder lines = new StringBuilder();
        long puts = 0;
        long tombstones = 0;
        for (LoggedChange c : changes.changes()) {
            String line = line(c, description.keySchema());
            lines.append(line).append('\n');
            if (c.tombstone()) {
                tombstones++;
            } else {
                puts++;
            }
        }
        byte[] data = lines.toString().getBytes(StandardCharsets.UTF_8);
        String digest = HexFormat.of().formatHex(sha.digest(data));
        Path dataTemp = temps.create(dir, DATA_FILE);
        LayoutWriter.writeSynced(dataTemp, data);
        ObjectNode m = DescriptionJson.MAPPER.createObjectNode();
        m.put("format", FORMAT);
        m.put("account", account);
        m.put("tableName", description.tableName());
        m.put("changeLog", description.changeLog().name());
        m.put("dataFile", DATA_FILE);
        m.put("changeCount", puts + tombstones);
        m.put("puts", puts);
        m.put("tombstones", tombstones);
        m.put("bytes", data.length);
        m.put("sha256", digest);
        m.putObject("since").put("kind", changes.since().kind()).put("marker", changes.since().marker());
        m.putObject("until").put("kind", changes.until().kind()).put("marker", changes.until().marker())
                .put("exportedAt", Instant.now().toString());
        m.set("table", DescriptionJson.of(description, false));
        Path manifestTemp = temps.create(dir, MANIFEST);
        LayoutWriter.writeSynced(manifestTemp, (DescriptionJson.text(m) + "\n").getBytes(StandardCharsets.UTF_8));
        Path dataFile = dir.resolve(DATA_FILE);
        Path manifest = dir.resolve(MANIFEST);
        temps.commit(() -> {
            Files.deleteIfExists(manifest);
            LayoutWriter.rename(dataTemp, dataFile);
            LayoutWriter.rename(manifestTemp, manifest);
        });
        return new Result(changes, puts, tombstones, data.length, digest, dataFile, manifest,
                Duration.ofNanos(System.nanoTime() - started));
    }

    /**
     * One change's line. A new image whose key attributes differ from the change's keys is refused as a
     * full export refuses an item whose key differs from its stored key [E1], naming the keys.
     */
    static String line(LoggedChange c, KeySchema schema) {
        StringBuilder b = new StringBuilder(256).append("{\"Keys\":").append(ItemJson.encode(c.keys()));
        c.newImage().ifPresent(image -> {
            requireSameKey(c.keys(), image, schema);
            b.append(",\"NewImage\":").append(ItemJson.encode(image));
        });
        c.oldImage().ifPresent(image -> b.append(",\"OldImage\":").append(ItemJson.encode(image)));
        return b.append('}').toString();
    }

    private static void requireSameKey(Item keys, Item image, KeySchema schema) {
        for (String name : schema.sortKey().map(s -> List.of(schema.partitionKey(), s))
                .orElse(List.of(schema.partitionKey()))) {
            Optional<AttributeValue> inImage = image.find(name);
            if (inImage.isEmpty() || !inImage.equals(keys.find(name))) {
                throw new BackupFailure(BackupFailure.Problem.CORRUPT_ITEM, "change of keys " + ItemJson.encode(keys)
                        + " has a new image whose key attribute '" + name + "' differs; nothing was written", null);
            }
        }
    }
}
