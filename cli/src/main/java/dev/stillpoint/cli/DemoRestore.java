package dev.stillpoint.cli;

import dev.stillpoint.adapters.sqlite.SqliteStorage;
import dev.stillpoint.backup.TableRestore;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.IndexStatus;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.in.TableSnapshot;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The demo's last step [E4, E6]: the verified export restored into a new table, and the restored table
 * proved equal to the snapshot: the item count, every item, and the GSI's contents. The index is read
 * from the SQLite file itself (its relations {@code d_<table id>__gsi__<n>}, read-only JDBC), since the
 * ports offer no index read: every entry must be an exported item that has the index's key attributes,
 * each such item exactly once.
 */
final class DemoRestore {
    final List<String> failures = new ArrayList<>();
    final List<String> lines = new ArrayList<>();

    private DemoRestore() {
    }

    static DemoRestore prove(SqliteStorage storage, Path db, Path exportDir, String table, String gsi,
                             KeySchema gsiKey, Map<String, Item> snapshot) {
        KeySchema schema = KeySchema.composite("pk", "sk");
        DemoRestore p = new DemoRestore();
        String restored = table + "-restored";
        TableRestore.Result r = TableRestore.from(exportDir).run(storage, DemoData.ACCOUNT, restored);
        p.lines.add(String.format("Restored the export into table '%s': %,d items in %d ms (%,.0f items/s), %s",
                restored, r.items(), r.elapsed().toMillis(), r.itemsPerSecond(), r.table().status()));
        if (r.table().status() != TableStatus.ACTIVE) {
            p.failures.add("the restored table is " + r.table().status() + ", not ACTIVE");
        }
        r.table().restoreSummary().ifPresentOrElse(s -> p.lines.add("  restore summary  source " + s.sourceTableArn()
                        .orElse("(none)") + ", in progress: " + s.restoreInProgress()),
                () -> p.failures.add("the restored table has no RestoreSummary"));

        // Every item, through a snapshot of the restored table.
        long count = 0;
        long differing = 0;
        Set<String> seen = new HashSet<>();
        try (TableSnapshot s = storage.snapshots().openTableSnapshot(DemoData.ACCOUNT, restored)) {
            while (s.items().hasNext()) {
                Item item = s.items().next().item();
                count++;
                String id = DemoData.keyId(item, schema);
                seen.add(id);
                if (!item.equals(snapshot.get(id))) {
                    differing++;
                }
            }
        }
        differing += snapshot.keySet().stream().filter(id -> !seen.contains(id)).count();
        p.lines.add(String.format("  items            %,d (the snapshot held %,d), every item equal: %s", count,
                snapshot.size(), differing == 0 && count == snapshot.size() ? "yes" : "NO (" + differing + " differ)"));
        if (differing != 0 || count != snapshot.size()) {
            p.failures.add("the restored table differs from the snapshot in " + differing + " items (" + count + " items)");
        }

        // The GSI's contents, from the file.
        Optional<GlobalSecondaryIndex> index = r.table().globalSecondaryIndexes().stream()
                .filter(g -> g.name().equals(gsi)).findFirst();
        if (index.isEmpty() || index.get().status() != IndexStatus.ACTIVE || !index.get().keySchema().equals(gsiKey)) {
            p.failures.add("the restored table has no ACTIVE GSI " + gsi + " keyed " + gsiKey.partitionKey()
                    + gsiKey.sortKey().map(s -> ", " + s).orElse("") + " (a key schema as users write it, not the record's text)");
            return p;
        }
        Map<String, Item> expected = new HashMap<>();
        snapshot.forEach((id, item) -> {
            boolean keyed = item.attributes().containsKey(gsiKey.partitionKey())
                    && gsiKey.sortKey().map(item.attributes()::containsKey).orElse(true);
            if (keyed) {
                expected.put(id, item);
            }
        });
        List<Item> entries = indexEntries(db, r.table().tableId());
        Map<String, Integer> times = new HashMap<>();
        long wrong = 0;
        for (Item entry : entries) {
            String id = DemoData.keyId(entry, schema);
            times.merge(id, 1, Integer::sum);
            if (!entry.equals(expected.get(id))) {
                wrong++;
            }
        }
        long missing = expected.keySet().stream().filter(id -> !times.containsKey(id)).count();
        long twice = times.values().stream().filter(n -> n > 1).count();
        boolean ok = wrong == 0 && missing == 0 && twice == 0 && entries.size() == expected.size();
        p.lines.add(String.format("  index %s  %,d entries (%,d snapshot items have %s), each its item once: %s", gsi,
                entries.size(), expected.size(), gsiKey.partitionKey() + gsiKey.sortKey().map(s -> " and " + s).orElse(""),
                ok ? "yes" : "NO (" + wrong + " wrong, " + missing + " missing, " + twice + " twice)"));
        if (!ok) {
            p.failures.add("the restored index " + gsi + " differs from the snapshot: " + wrong + " wrong, " + missing
                    + " missing, " + twice + " twice");
        }
        return p;
    }

    /** Every entry of the table's one GSI relation in the SQLite file, as items. */
    private static List<Item> indexEntries(Path db, String tableId) {
        List<Item> items = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:file:" + db.toAbsolutePath() + "?mode=ro");
             Statement s = c.createStatement()) {
            List<String> relations = new ArrayList<>();
            try (ResultSet names = s.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'd_"
                    + tableId.replace("'", "''") + "__gsi__%'")) {
                while (names.next()) {
                    relations.add(names.getString(1));
                }
            }
            if (relations.size() != 1) {
                throw new CliFailure(ExitCodes.VERIFICATION_FAILED, "expected one GSI relation of table " + tableId
                        + ", found " + relations);
            }
            try (ResultSet rows = s.executeQuery("SELECT item FROM \"" + relations.get(0) + "\"")) {
                while (rows.next()) {
                    items.add(ItemJson.decode(rows.getString(1)));
                }
            }
        } catch (SQLException e) {
            throw new CliFailure(ExitCodes.VERIFICATION_FAILED, "cannot read the restored index from " + db + ": "
                    + e.getMessage(), e);
        }
        return items;
    }
}
