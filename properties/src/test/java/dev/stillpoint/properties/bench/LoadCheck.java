package dev.stillpoint.properties.bench;

import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.request.RequestKey;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.ports.in.SnapshotEngine;
import dev.stillpoint.ports.in.StoredItem;
import dev.stillpoint.ports.in.TableOperations;
import dev.stillpoint.ports.in.TableSnapshot;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.function.IntFunction;

/**
 * The benchmarks load their tables behind the adapter's back (bulk inserts, COPY), so before
 * measuring they check that a snapshot of the loaded table is what putItem would have produced.
 */
public final class LoadCheck {

    private LoadCheck() {
    }

    /** The loaded row or putItem's row of sampled item {@code i}: its columns as text, the item's JSON last; null when none. */
    public interface SampleRow {
        String[] of(int i) throws SQLException;
    }

    /** {@link #sampleMatches} for every item of {@code sample} ({@code item} and {@code json} give them); returns the count. */
    public static int samplesMatch(TableOperations tables, String accountId, String table, KeySchema schema, int[] sample,
                                   IntFunction<Item> item, IntFunction<String> json, SampleRow loaded, SampleRow put,
                                   String loadedWord) throws SQLException {
        int same = 0;
        for (int i : sample) {
            sampleMatches(tables, accountId, table, Key.of(item.apply(i), schema), i, json.apply(i), loaded.of(i),
                    put.of(i), loadedWord);
            same++;
        }
        return same;
    }

    /**
     * Sampled item {@code i}: the row the benchmark loaded ({@code loaded}, its columns as text, the
     * item's JSON last) equals the row putItem wrote ({@code put}) and {@code expectedJson}, and getItem
     * of {@code key} returns that item; {@code loadedWord} says how the row was loaded in the failure.
     */
    public static void sampleMatches(TableOperations tables, String accountId, String table, Key key, int i,
                                     String expectedJson, String[] loaded, String[] put, String loadedWord) {
        if (loaded == null || put == null || !Arrays.equals(loaded, put) || !loaded[2].equals(expectedJson)) {
            throw new IllegalStateException("item " + i + ": " + loadedWord + " row " + Arrays.toString(loaded)
                    + " differs from putItem's row " + Arrays.toString(put));
        }
        KeySchema schema = tables.describeTable(accountId, table).keySchema();
        RequestKey asked = key.sort().map(s -> RequestKey.of(schema.partitionKey(), key.partition(), schema.sortKey().orElseThrow(), s))
                .orElseGet(() -> RequestKey.of(schema.partitionKey(), key.partition()));
        Item got = tables.getItem(accountId, table, asked).orElseThrow(
                () -> new IllegalStateException("getItem found no item " + i));
        if (!got.equals(ItemJson.decode(expectedJson)) || !ItemJson.encode(got).equals(expectedJson)) {
            throw new IllegalStateException("getItem of item " + i + " differs: " + got);
        }
    }

    /**
     * A snapshot of the table yields exactly {@code items} items in key order, and its first and last
     * 1,000 carry the JSON {@code expectedJson} gives for their position (as text and as items).
     */
    public static void snapshotMatches(SnapshotEngine snapshots, String accountId, String table, int items,
                                       IntFunction<String> expectedJson) {
        try (TableSnapshot s = snapshots.openTableSnapshot(accountId, table)) {
            if (!s.keyOrdered()) {
                throw new IllegalStateException("snapshot of " + table + " is not key ordered");
            }
            int i = 0;
            while (s.items().hasNext()) {
                StoredItem got = s.items().next();
                if (i < 1000 || i >= items - 1000) {
                    String expected = expectedJson.apply(i);
                    if (!got.json().equals(expected) || !got.item().equals(ItemJson.decode(expected))) {
                        throw new IllegalStateException("snapshot item " + i + " differs: " + got.json());
                    }
                }
                i++;
            }
            if (i != items) {
                throw new IllegalStateException("snapshot yielded " + i + " items, expected " + items);
            }
        }
    }
}
