package dev.stillpoint.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stillpoint.adapters.sqlite.SqliteStorage;
import dev.stillpoint.backup.DescriptionJson;
import dev.stillpoint.backup.ExportResult;
import dev.stillpoint.backup.TableExport;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.item.KeyOrder;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.ports.in.TableSnapshot;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The demo's verifier, a model check apart from the scenario: the export against the model of the
 * table at the snapshot's open (nothing the writer did leaked in, nothing lost, no duplicates, strict
 * key order, the manifest's count and sha256), and a second snapshot after the writer against the
 * writes applied in commit order. It counts what it finds; every failed check adds a failure.
 */
final class DemoVerification {

    final List<String> failures = new ArrayList<>();
    long lines;
    long insertedLeaked;
    long newerVersions;
    long unknown;
    long duplicates;
    long outOfOrder;
    long missing;
    long deletedButExported;
    long overwrittenAtOldContent;
    boolean shaMatches;
    long afterCount;
    long afterMismatches;

    void fail(String what) {
        failures.add(what);
    }

    void checkAfter(SqliteStorage storage, Map<String, Item> expected) {
        // A second snapshot, after the writer: every write is there, so the first one's silence was isolation.
        Set<String> seen = new HashSet<>();
        try (TableSnapshot s = storage.snapshots().openTableSnapshot(DemoData.ACCOUNT, DemoData.TABLE)) {
            while (s.items().hasNext()) {
                Item item = s.items().next().item();
                afterCount++;
                String id = DemoData.keyId(item, DemoData.SCHEMA);
                seen.add(id);
                if (!item.equals(expected.get(id))) {
                    afterMismatches++;
                }
            }
        }
        afterMismatches += expected.keySet().stream().filter(id -> !seen.contains(id)).count();
        if (afterMismatches != 0 || afterCount != expected.size()) {
            fail("a snapshot after the writer differs from the writes applied in order in " + afterMismatches
                    + " items (" + afterCount + " items, expected " + expected.size() + ")");
        }
    }

    void report(PrintWriter out, ExportResult r, int atOpen, List<DemoWriter.Write> writes, List<String> restore,
                double total) {
        long inserts = writes.stream().filter(w -> w.kind() == DemoWriter.Kind.INSERT).count();
        out.println("Verified against the table as it was when the snapshot opened:");
        out.printf("  items exported   %,d (the table held %,d at the open; manifest says %,d)%n", lines, atOpen, r.items());
        out.printf("  leaked in: %d     inserted items %d of %,d, newer versions %d, unknown items %d%n",
                insertedLeaked + newerVersions + unknown, insertedLeaked, inserts, newerVersions, unknown);
        out.printf("  lost: %d          missing %d, changed %d; %,d items deleted and %,d overwritten since the open"
                + " are there as they were%n", missing + newerVersions, missing, newerVersions,
                deletedButExported, overwrittenAtOldContent);
        out.printf("  duplicates: %d%n", duplicates);
        out.printf("  key-ordered: %s   %s%n", r.keyOrdered() && outOfOrder == 0 ? "yes" : "NO",
                r.keyOrdered() ? outOfOrder + " out of order (strictly ascending by KeyOrder: S by UTF-8 bytes, N by value)"
                        : "(the snapshot did not declare key order)");
        out.printf("  sha256: %s   %s%n", shaMatches ? "matches" : "MISMATCH", r.sha256());
        out.printf("  after the writer, a new snapshot holds %,d items with every one of the %,d writes: %s%n",
                afterCount, writes.size(), afterMismatches == 0 ? "yes" : "NO");
        out.printf("  marker: %s %s%n", r.info().kind(), r.info().marker());
        restore.forEach(out::println);
        out.printf("%s in %.1f s%n", failures.isEmpty() ? "OK" : "FAILED", total);
        out.flush();
    }

    static DemoVerification verify(ExportResult r, Map<String, Item> atOpen, List<DemoWriter.Write> writes,
                                       int duringExport) {
        DemoVerification v = new DemoVerification();
        if (duringExport == 0) {
            v.fail("the writer committed no write during the export, so nothing was proved");
        }
        Set<String> inserted = new HashSet<>();
        Set<String> deleted = new HashSet<>();
        Set<String> overwritten = new HashSet<>();
        for (DemoWriter.Write w : writes) {
            switch (w.kind()) {
                case INSERT -> inserted.add(w.keyId());
                case DELETE -> deleted.add(w.keyId());
                case OVERWRITE -> overwritten.add(w.keyId());
            }
        }
        TableDescription d = r.description();
        KeyOrder order = KeyOrder.resolve(d.keySchema(), d.attributeDefinitions()).ordered().orElse(null);
        if (!r.keyOrdered() || order == null) {
            v.fail("the snapshot of a table keyed pk:S, sk:N is not key-ordered");
        }
        Set<String> seen = new HashSet<>(atOpen.size() * 2);
        Key previous = null;
        try (BufferedReader in = Files.newBufferedReader(r.dataFile())) {
            String line;
            while ((line = in.readLine()) != null) {
                v.lines++;
                Item item = ItemJson.decode(line);
                String id = DemoData.keyId(item, DemoData.SCHEMA);
                if (!seen.add(id)) {
                    v.duplicates++;
                }
                Item expected = atOpen.get(id);
                if (expected == null) {
                    if (inserted.contains(id)) {
                        v.insertedLeaked++;
                    } else {
                        v.unknown++;
                    }
                } else if (!expected.equals(item)) {
                    v.newerVersions++;
                } else {
                    v.deletedButExported += deleted.contains(id) ? 1 : 0;
                    v.overwrittenAtOldContent += overwritten.contains(id) ? 1 : 0;
                }
                Key key = Key.of(item, d.keySchema());
                if (order != null && previous != null && order.compare(previous, key) >= 0) {
                    v.outOfOrder++;
                }
                previous = key;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read back " + r.dataFile(), e);
        }
        v.missing = atOpen.keySet().stream().filter(id -> !seen.contains(id)).count();
        if (v.lines != atOpen.size()) {
            v.fail("the export holds " + v.lines + " items, the table held " + atOpen.size() + " at the open");
        }
        if (v.lines != r.items()) {
            v.fail("the exporter counted " + r.items() + " items but items.jsonl has " + v.lines + " lines");
        }
        if (v.insertedLeaked + v.newerVersions + v.unknown > 0) {
            v.fail((v.insertedLeaked + v.newerVersions + v.unknown) + " items leaked in");
        }
        if (v.missing + v.newerVersions > 0) {
            v.fail((v.missing + v.newerVersions) + " items lost");
        }
        if (v.duplicates > 0) {
            v.fail(v.duplicates + " duplicate keys");
        }
        if (v.outOfOrder > 0) {
            v.fail(v.outOfOrder + " items out of key order");
        }
        checkManifest(v, r);
        return v;
    }

    private static void checkManifest(DemoVerification v, ExportResult r) {
        String sha = sha256(r.dataFile());
        JsonNode m;
        try {
            m = DescriptionJson.MAPPER.readTree(r.manifestFile().toFile());
        } catch (IOException e) {
            v.fail("cannot read the manifest: " + e.getMessage());
            return;
        }
        v.shaMatches = sha.equals(m.path("sha256").asText()) && sha.equals(r.sha256());
        if (!v.shaMatches) {
            v.fail("sha256 of items.jsonl is " + sha + ", the manifest says " + m.path("sha256").asText());
        }
        if (m.path("itemCount").asLong(-1) != v.lines) {
            v.fail("the manifest's itemCount " + m.path("itemCount") + " is not the " + v.lines + " lines");
        }
        if (!TableExport.DATA_FILE.equals(m.path("dataFile").asText())
                || m.path("keyOrdered").asBoolean() != r.keyOrdered()
                || !r.info().marker().equals(m.path("snapshot").path("marker").asText())
                || !r.info().kind().equals(m.path("snapshot").path("kind").asText())
                || !DemoData.TABLE.equals(m.path("table").path("TableName").asText())
                || m.path("table").path("GlobalSecondaryIndexes").size() != 1) {
            v.fail("the manifest does not describe this export: " + DescriptionJson.text(m));
        }
    }

    /** The table after every write, applied in commit order to the table at the open. */
    static Map<String, Item> applied(Map<String, Item> atOpen, List<DemoWriter.Write> writes) {
        Map<String, Item> after = new HashMap<>(atOpen);
        for (DemoWriter.Write w : writes) {
            if (w.item() == null) {
                after.remove(w.keyId());
            } else {
                after.put(w.keyId(), w.item());
            }
        }
        return after;
    }

    private static String sha256(Path file) {
        MessageDigest sha = TableExport.sha256();
        byte[] buffer = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(file)) {
            int n;
            while ((n = in.read(buffer)) > 0) {
                sha.update(buffer, 0, n);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        return java.util.HexFormat.of().formatHex(sha.digest());
    }
}
