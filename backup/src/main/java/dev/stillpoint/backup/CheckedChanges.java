package dev.stillpoint.backup;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stillpoint.backup.BackupFailure.Problem;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.table.ChangeLog;
import dev.stillpoint.domain.table.TableDescription;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

/**
 * An incremental export [I3] read in full and found sound against the table it is to be applied to, before
 * anything is written, as a full restore's input is [E3]: the layout and its version, every checksum (our
 * sha256; DynamoDB's per-file MD5 and {@code .checksum} files), every count (lines, puts, tombstones, per file
 * and in all), every gzip stream to its end, and every line: an object of {@code Keys}, {@code NewImage},
 * {@code OldImage} (and, in DynamoDB's layout, {@code Metadata.WriteTimestampMicros}) and nothing else;
 * {@code Keys} exactly the table's key attributes with their types; a NewImage that PutItem would accept on
 * the target table [V2] and whose key is {@code Keys}; an OldImage a sound item, present only in the
 * NEW_AND_OLD_IMAGES view; no two lines holding one key (a window has one change per key). A bad input is
 * a {@link BackupFailure} naming the file and line; integrity is judged before content [V5].
 *
 * <p>The changes are kept in a private temporary file ({@link ChangeSpool}), not in memory, so a window of any
 * size is checked and applied in bounded memory, and the apply writes exactly what was checked, with no second
 * reading of the input to go stale. {@link #close} removes the file.
 */
public final class CheckedChanges implements AutoCloseable {
    /**
     * One checked line.
     *
     * @param keys the key attributes
     * @param newImage the item at the window's end; empty for a tombstone
     */
    record Change(Item keys, Optional<Item> newImage) {
    }

    private final ExportFormat format;
    private final Path dir;
    private final String since;
    private final String until;
    private final Optional<Instant> untilTime;
    private final ChangeLog view;
    private final ChangeSpool changes;

    private CheckedChanges(ExportFormat format, Path dir, String since, String until, Optional<Instant> untilTime,
                           ChangeLog view, ChangeSpool changes) {
        this.format = format;
        this.dir = dir;
        this.since = since;
        this.until = until;
        this.untilTime = untilTime;
        this.view = view;
        this.changes = changes;
    }

    /**
     * Whether {@code dir} holds an incremental export of either layout (by its manifest alone; nothing
     * else is checked): our {@code manifest.json} of format {@value ChangesExport#FORMAT}, or a
     * {@code manifest-summary.json} of exportType INCREMENTAL_EXPORT.
     *
     * @param dir a directory
     * @return true when its manifest says it is incremental
     */
    public static boolean isIncremental(Path dir) {
        try {
            Path ours = dir.resolve(ChangesExport.MANIFEST);
            if (Files.isRegularFile(ours)) {
                return ChangesExport.FORMAT.equals(ManifestJson.readJson(ours).path("format").asText(""));
            }
            Optional<Path> summary = DynamoDbExportCheck.findSummary(dir);
            return summary.isPresent() && DynamoDbChangesLayout.EXPORT_TYPE.equals(
                    ManifestJson.readJson(summary.get()).path("exportType").asText(""));
        } catch (BackupFailure e) {
            return false; // not readable as either: the full restore's check names what is wrong
        }
    }

    /**
     * Reads and checks the incremental export in {@code dir} against {@code target}, the table it is to be
     * applied to: its key and its rules (indexes included) are the ones every line must pass.
     *
     * @param dir the export directory
     * @param target the table's description
     * @return the checked changes
     * @throws BackupFailure FORMAT, INTEGRITY or ITEM, naming the file and line
     */
    public static CheckedChanges check(Path dir, TableDescription target) {
        if (!Files.isDirectory(dir)) {
            throw new BackupFailure(Problem.FORMAT, dir, 0, "export directory " + dir + " does not exist or is not a directory", null);
        }
        Path ours = dir.resolve(ChangesExport.MANIFEST);
        if (Files.isRegularFile(ours)) {
            return ours(dir, ours, target);
        }
        Optional<Path> summary = DynamoDbExportCheck.findSummary(dir);
        if (summary.isPresent()) {
            return DynamoDbChangesCheck.check(dir, summary.get(), target);
        }
        throw new BackupFailure(Problem.FORMAT, dir, 0, "no incremental export in " + dir + ": neither "
                + ChangesExport.MANIFEST + " nor " + DynamoDbLayout.SUMMARY, null);
    }

    private static CheckedChanges ours(Path dir, Path manifest, TableDescription target) {
        JsonNode m = ManifestJson.readJson(manifest);
        String format = m.path("format").asText("");
        if (!ChangesExport.FORMAT.equals(format)) {
            throw new BackupFailure(Problem.FORMAT, manifest, 0, manifest + ": format '" + format + "' is not "
                    + ChangesExport.FORMAT + ", an incremental export this build applies", null);
        }
        String dataName = ManifestJson.requiredText(m, "dataFile", manifest);
        if (!ChangesExport.DATA_FILE.equals(dataName)) {
            throw new BackupFailure(Problem.FORMAT, manifest, 0, manifest + ": dataFile '" + dataName + "' is not "
                    + ChangesExport.DATA_FILE, null);
        }
        long count = ManifestJson.requiredCount(m, "changeCount", manifest);
        long puts = ManifestJson.requiredCount(m, "puts", manifest);
        long tombstones = ManifestJson.requiredCount(m, "tombstones", manifest);
        String sha = ManifestJson.requiredText(m, "sha256", manifest);
        String since = ManifestJson.requiredText(m.path("since"), "marker", manifest);
        String until = ManifestJson.requiredText(m.path("until"), "marker", manifest);
        ChangeLog view = view(m.path("view").asText(m.path("changeLog").asText("")), manifest);
        Path data = dir.resolve(ChangesExport.DATA_FILE);
        try (ChangeLines lines = new ChangeLines(target, view, false)) {
            DataFileLines.FileDigest d = DataFileLines.read(data, false, "SHA-256", (text, line) -> lines.add(data, line, text));
            String actual = java.util.HexFormat.of().formatHex(d.digest());
            // Integrity first [V5]: a changed or cut file is exit 11 whatever its damaged lines look like.
            if (!actual.equals(sha)) {
                throw new BackupFailure(Problem.INTEGRITY, data, 0, data + ": sha256 " + actual + " is not the manifest's "
                        + sha + d.cut(), null);
            }
            if (d.lines() >= 0 && d.lines() != count) {
                throw new BackupFailure(Problem.INTEGRITY, data, 0, data + " holds " + d.lines() + " changes; "
                        + manifest.getFileName() + " says " + count, null);
            }
            d.requireItems();
            lines.requireCounts(puts, tombstones, manifest);
            return new CheckedChanges(ExportFormat.STILLPOINT, dir, since, until,
                    ManifestJson.optionalInstant(m.path("until"), "exportedAt", manifest), view, lines.checked());
        }
    }

    static ChangeLog view(String text, Path manifest) {
        if (!text.equals(ChangeLog.NEW_IMAGE.name()) && !text.equals(ChangeLog.NEW_AND_OLD_IMAGES.name())) {
            throw new BackupFailure(Problem.FORMAT, manifest, 0, manifest + ": view '" + text
                    + "' is not NEW_IMAGE or NEW_AND_OLD_IMAGES", null);
        }
        return ChangeLog.valueOf(text);
    }

    static CheckedChanges of(ExportFormat format, Path dir, String since, String until, Optional<Instant> untilTime,
                             ChangeLog view, ChangeSpool changes) {
        return new CheckedChanges(format, dir, since, until, untilTime, view, changes);
    }

    /** @return the layout read */
    public ExportFormat format() {
        return format;
    }

    /** @return the directory read */
    public Path dir() {
        return dir;
    }

    /** @return the marker the window starts after: the table must stand at it */
    public String since() {
        return since;
    }

    /** @return the marker the window ends at: the table stands at it once the changes are applied */
    public String until() {
        return until;
    }

    /** @return the instant the window's end was read at, when the manifest gives it */
    public Optional<Instant> untilTime() {
        return untilTime;
    }

    /** @return the images the lines carry */
    public ChangeLog view() {
        return view;
    }

    /** Hands every checked change to {@code each}, in file order, read back from the temporary copy. */
    void forEach(java.util.function.Consumer<Change> each) {
        changes.forEach(each);
    }

    /** @return lines with a new image */
    public long puts() {
        return changes.puts();
    }

    /** @return lines without one */
    public long tombstones() {
        return changes.tombstones();
    }

    /** Removes the temporary copy of the changes. */
    @Override
    public void close() {
        changes.close();
    }
}
