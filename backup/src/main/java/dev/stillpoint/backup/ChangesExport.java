package dev.stillpoint.backup;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.table.ChangeLog;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.ports.in.ChangeLogReads;
import dev.stillpoint.ports.in.ChangeWindow;
import dev.stillpoint.ports.in.LoggedChange;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
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
 *
 * <p>{@link ExportFormat#DYNAMODB} writes DynamoDB's incremental export layout instead
 * ({@link DynamoDbChangesLayout}). Either layout holds the view asked for [I3]: NEW_IMAGE lines carry no
 * OldImage even where the table's log keeps one, as DynamoDB's ExportViewType NEW_IMAGE exports "only the
 * new (latest) image" (API reference, IncrementalExportSpecification:
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_IncrementalExportSpecification.html);
 * NEW_AND_OLD_IMAGES asked of a log that keeps no old images is refused by name.
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
     * @param format the layout written
     * @param view the images each line carries: NEW_IMAGE, or NEW_AND_OLD_IMAGES
     */
    public record Result(ChangeWindow changes, long puts, long tombstones, long bytes, String sha256, Path dataFile,
                         Path manifestFile, Duration elapsed, ExportFormat format, ChangeLog view) {
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
        return export(reads, account, table, sinceMarker, dir, temps, ExportFormat.STILLPOINT, Optional.empty());
    }

    /**
     * Writes the changes of {@code table} since {@code sinceMarker} into {@code dir} in {@code format}'s layout,
     * each line carrying the images of {@code view} (the table's log's view when empty).
     *
     * @param reads the backend's change log reads
     * @param account the account the table belongs to
     * @param table the table's name
     * @param sinceMarker the marker of the full export (or earlier window) this one starts after
     * @param dir the output directory
     * @param temps the export's temporary files
     * @param format our layout or DynamoDB's incremental one
     * @param view NEW_IMAGE or NEW_AND_OLD_IMAGES; empty for the table's log's own
     * @return what was written
     * @throws dev.stillpoint.domain.error.StorageException as the reads throw it; VALIDATION for a view the
     *     log cannot give (old images of a NEW_IMAGE log, or OFF)
     * @throws BackupFailure OUTPUT when a file cannot be written
     */
    public static Result export(ChangeLogReads reads, String account, String table, String sinceMarker, Path dir,
                                ExportTemps temps, ExportFormat format, Optional<ChangeLog> view) {
        long started = System.nanoTime();
        TableExport.prepareOutput(dir);
        ExportTemps.removeStale(dir);
        try {
            if (format == ExportFormat.DYNAMODB) {
                return DynamoDbChangesLayout.write(reads, account, table, sinceMarker, view, dir, temps, started);
            }
            return write(reads, account, table, sinceMarker, view, dir, temps, started);
        } catch (IOException e) {
            temps.removeLeftovers();
            throw new BackupFailure(BackupFailure.Problem.OUTPUT, "cannot write the incremental export of table '"
                    + table + "' to " + dir + ": " + TableExport.reason(e), e);
        } catch (RuntimeException e) {
            temps.removeLeftovers();
            throw e;
        }
    }

    /**
     * Streams the window into {@code file} and finishes it: the read's transaction is open while the lines
     * are written; on any failure the file is closed and the caller removes the temps.
     */
    static void stream(ChangeLogReads reads, String account, String table, String sinceMarker, ChangeFile file)
            throws IOException {
        try {
            reads.streamChanges(account, table, sinceMarker, file);
            file.finish();
        } catch (IOException | RuntimeException e) {
            file.closeQuietly();
            throw e;
        }
    }

    /** The view the lines carry: the one asked for, which the table's log must be able to give, or the log's. */
    static ChangeLog viewOf(TableDescription description, Optional<ChangeLog> asked) {
        ChangeLog log = description.changeLog();
        ChangeLog view = asked.orElse(log);
        if (view == ChangeLog.OFF || (view.keepsOldImage() && !log.keepsOldImage())) {
            throw dev.stillpoint.domain.error.StorageException.validation("export view " + view + " of table '"
                    + description.tableName() + "' is not one its change log (" + log + ") can give: NEW_IMAGE, or"
                    + " NEW_AND_OLD_IMAGES of a log that keeps old images [I3]");
        }
        return view;
    }

    private static Result write(ChangeLogReads reads, String account, String table, String sinceMarker,
                                Optional<ChangeLog> asked, Path dir, ExportTemps temps, long started) throws IOException {
        Path dataTemp = temps.create(dir, DATA_FILE);
        ChangeFile file = new ChangeFile(dataTemp, false, TableExport.sha256(), (window, read) -> {
            ChangeLog shown = viewOf(window.description(), asked);
            KeySchema schema = window.description().keySchema();
            return c -> (line(c, schema, shown) + "\n").getBytes(StandardCharsets.UTF_8);
        });
        stream(reads, account, table, sinceMarker, file);
        ChangeWindow changes = file.window();
        TableDescription description = changes.description();
        ChangeLog view = viewOf(description, asked);
        long puts = file.puts();
        long tombstones = file.tombstones();
        long bytes = file.lineBytes();
        String digest = ChangeFile.hex(file.digest());
        ObjectNode m = DescriptionJson.MAPPER.createObjectNode();
        m.put("format", FORMAT);
        m.put("account", account);
        m.put("tableName", description.tableName());
        m.put("changeLog", description.changeLog().name());
        m.put("view", view.name());
        m.put("dataFile", DATA_FILE);
        m.put("changeCount", puts + tombstones);
        m.put("puts", puts);
        m.put("tombstones", tombstones);
        m.put("bytes", bytes);
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
        return new Result(changes, puts, tombstones, bytes, digest, dataFile, manifest,
                Duration.ofNanos(System.nanoTime() - started), ExportFormat.STILLPOINT, view);
    }

    /**
     * One change's line. A new image whose key attributes differ from the change's keys is refused as a
     * full export refuses an item whose key differs from its stored key [E1], naming the keys.
     */
    static String line(LoggedChange c, KeySchema schema, ChangeLog view) {
        return body(new StringBuilder(256).append('{'), c, schema, view).append('}').toString();
    }

    /**
     * {@code "Keys":..,"NewImage":..,"OldImage":..} of one change, appended to {@code b}: NewImage absent for a
     * tombstone, OldImage only when {@code view} keeps old images and the key had an item at the start.
     */
    static StringBuilder body(StringBuilder b, LoggedChange c, KeySchema schema, ChangeLog view) {
        b.append("\"Keys\":").append(ItemJson.encode(c.keys()));
        c.newImage().ifPresent(image -> {
            requireSameKey(c.keys(), image, schema);
            b.append(",\"NewImage\":").append(ItemJson.encode(image));
        });
        if (view.keepsOldImage()) {
            c.oldImage().ifPresent(image -> b.append(",\"OldImage\":").append(ItemJson.encode(image)));
        }
        return b;
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
