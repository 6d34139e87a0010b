package dev.stillpoint.backup;

import dev.stillpoint.backup.BackupFailure.Problem;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.request.RequestKey;
import dev.stillpoint.domain.table.RestoreSummary;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.in.Storage;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Applies an incremental export [I3] (either layout) to an existing table restored from the full export at
 * the window's start, so the table becomes the table at the window's end, item for item [I2].
 *
 * <p>In order, nothing written until the last check passed:
 * <ol>
 *   <li>the table stands at the export's start: the marker its RestoreSummary records ({@link RestoredMarker},
 *       written by the full restore, or by the previous apply) equals the export's {@code since} marker;
 *       a table that records none, or another, is refused by name (MARKER), so a window is never applied
 *       to a state it does not start from;</li>
 *   <li>the whole input is checked against the table ({@link CheckedChanges}): checksums, counts, and every
 *       image PutItem would refuse on this table refused, naming the line [V2];</li>
 *   <li>each put replaces the key's item (PutItem); each tombstone deletes the key (DeleteItem);</li>
 *   <li>the table's recorded marker moves to the export's {@code until}, its RestoreDateTime to the window's
 *       end, so the next window applies on top.</li>
 * </ol>
 *
 * <p>A tombstone of a key the table does not hold is a no-op, counted in {@link Result#absentTombstones}: the
 * window's end has no item under that key, and the table then has none, which is the state the export
 * describes. DynamoDB's DeleteItem of a missing key succeeds the same way ("Deletes a single item in a table
 * by primary key", API reference, DeleteItem:
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DeleteItem.html, an error only when a
 * condition is given). It happens legitimately: a NEW_IMAGE log keeps no old image, so a key written and
 * deleted inside one window still yields a tombstone, though the key was absent at the start. Refusing it
 * would refuse sound windows.
 *
 * <p>The writes are not one transaction: a failure part-way leaves the table between the two states with its
 * marker still at the start, and applying the same export again completes it (a put replaces, a delete of an
 * absent key is a no-op). Writes of others to the table between the restore and the apply are not undone; the
 * marker says where the export stands, not that nobody else wrote.
 */
public final class ChangesApply {

    /**
     * What an apply did.
     *
     * @param table the table's description afterwards, its RestoreSummary naming the new marker
     * @param format the layout read
     * @param since the marker the table stood at
     * @param until the marker the table stands at now
     * @param puts items put
     * @param tombstones keys deleted (absent ones included)
     * @param absentTombstones tombstones of keys the table did not hold: no-ops
     * @param elapsed from the first check to the marker recorded
     */
    public record Result(TableDescription table, ExportFormat format, String since, String until, long puts,
                         long tombstones, long absentTombstones, Duration elapsed) {
    }

    private ChangesApply() {
    }

    /**
     * Applies the incremental export in {@code dir} to the table {@code table}: see the class comment. Package
     * private: {@link RestoreRequest#apply} is the public way, as for a full restore [issue 29].
     *
     * @param storage the backend holding the table
     * @param dir the incremental export's directory, ours or DynamoDB's layout
     * @param account the table's account
     * @param table the table's name
     * @return what was applied
     * @throws dev.stillpoint.domain.error.StorageException TableNotFound; as PutItem and DeleteItem answer
     * @throws BackupFailure MARKER when the table does not stand at the export's start; FORMAT, INTEGRITY or
     *     ITEM for the input, naming the file and line; nothing written in either case
     */
    static Result apply(Storage storage, Path dir, String account, String table) {
        long started = System.nanoTime();
        TableDescription target = storage.tables().describeTable(account, table);
        String since = startOf(dir);
        requireAt(target, since, dir);
        try (CheckedChanges changes = CheckedChanges.check(dir, target)) {
            requireAt(target, changes.since(), dir);
            KeySchema schema = target.keySchema();
            long[] absent = {0};
            long[] applied = {0};
            try {
                changes.forEach(c -> {
                    if (c.newImage().isPresent()) {
                        storage.tables().putItem(account, table, c.newImage().get());
                    } else {
                        RequestKey key = keyOf(c.keys(), schema);
                        if (storage.tables().getItem(account, table, key).isEmpty()) {
                            absent[0]++;
                        }
                        storage.tables().deleteItem(account, table, key);
                    }
                    applied[0]++;
                });
            } catch (StorageException e) {
                // Found from outside (a disk full mid-way): the write's failure alone did not say the table was
                // part-way through the window, nor that the same export completes it.
                throw new StorageException(e.reason(), "applying the incremental export in " + dir + " to table '"
                        + table + "' stopped after " + applied[0] + " of " + (changes.puts() + changes.tombstones())
                        + " changes: " + e.getMessage() + "; the table still stands at marker '" + changes.since()
                        + "', so applying the same export again completes it [I3]", e);
            }
            Optional<String> sourceTableArn = target.restoreSummary().flatMap(RestoreSummary::sourceTableArn);
            storage.recordRestore(account, table, new RestoreSummary(
                    Optional.of(RestoredMarker.backupArn(sourceTableArn, changes.until())), sourceTableArn,
                    changes.untilTime().orElseGet(Instant::now), false));
            return new Result(storage.tables().describeTable(account, table), changes.format(), changes.since(),
                    changes.until(), changes.puts(), changes.tombstones(), absent[0],
                    Duration.ofNanos(System.nanoTime() - started));
        }
    }

    /** The export's start marker from its manifest alone, so a mismatch is refused before the data is read. */
    private static String startOf(Path dir) {
        Path ours = dir.resolve(ChangesExport.MANIFEST);
        if (java.nio.file.Files.isRegularFile(ours)) {
            return ManifestJson.requiredText(ManifestJson.readJson(ours).path("since"), "marker", ours);
        }
        Path summary = DynamoDbExportCheck.findSummary(dir).orElseThrow(() -> new BackupFailure(Problem.FORMAT, dir,
                0, "no incremental export in " + dir + ": neither " + ChangesExport.MANIFEST + " nor "
                + DynamoDbLayout.SUMMARY, null));
        return ManifestJson.readJson(summary).path(DynamoDbChangesLayout.WINDOW).path("since").path("marker")
                .asText("");
    }

    private static void requireAt(TableDescription target, String since, Path dir) {
        Optional<String> at = RestoredMarker.of(target);
        if (at.isEmpty()) {
            throw new BackupFailure(Problem.MARKER, dir, 0, "table '" + target.tableName() + "' records no snapshot"
                    + " marker (it was not restored from an export that names one), so the incremental export in "
                    + dir + ", which starts at marker '" + since + "', cannot be applied to it [I3]; nothing written", null);
        }
        if (!at.get().equals(since)) {
            throw new BackupFailure(Problem.MARKER, dir, 0, "table '" + target.tableName() + "' stands at marker '"
                    + at.get() + "', but the incremental export in " + dir + " starts at marker '" + since
                    + "': apply the exports in order, each starting where the table stands [I3]; nothing written", null);
        }
    }

    private static RequestKey keyOf(Item keys, KeySchema schema) {
        return schema.sortKey().map(s -> RequestKey.of(schema.partitionKey(), keys.get(schema.partitionKey()), s, keys.get(s)))
                .orElseGet(() -> RequestKey.of(schema.partitionKey(), keys.get(schema.partitionKey())));
    }
}
