package dev.stillpoint.cli;

import dev.stillpoint.backup.ExportListener;
import dev.stillpoint.backup.ExportResult;

import dev.stillpoint.adapters.sqlite.SqliteConfig;
import dev.stillpoint.adapters.sqlite.SqliteStorage;
import dev.stillpoint.adapters.sqlite.storage.KeyCodec;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateTableRequest;
import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The cost of the export's item check [E1], measured, not asserted: not in the suite (surefire's
 * includes skip *Bench); run it with {@code mvn -pl cli -am verify -Dtest=ExportCheckBench
 * -Dsurefire.failIfNoSpecifiedTests=false [-Dbench.items=200000 -Dbench.rounds=4]}. One read-only engine
 * exports the same table alternately with and without the check; it prints each run's wall and CPU time
 * (the process's: the check runs on the export's writing thread, not the caller's).
 */
class ExportCheckBench {

    @Test
    void exportWithAndWithoutTheCheck() throws Exception {
        int items = Integer.getInteger("bench.items", 200_000);
        int rounds = Integer.getInteger("bench.rounds", 4);
        Path dir = Cli.scratch("check-bench");
        Path db = dir.resolve("bench.db");
        String relation;
        try (SqliteStorage storage = SqliteStorage.open(SqliteConfig.file(db))) {
            storage.tables().createTable(new CreateTableRequest(StorageCommand.DEFAULT_ACCOUNT, "bench",
                    KeySchema.composite("pk", "sk"), List.of(new AttributeDefinition("pk", ScalarType.S),
                    new AttributeDefinition("sk", ScalarType.N)), List.of(), List.of(), Optional.empty()));
            // The read-only opening below runs no control plane: the table must be ACTIVE before this engine closes.
            relation = "d_" + dev.stillpoint.core.TableWaiter.awaitActive(storage.tables(),
                    StorageCommand.DEFAULT_ACCOUNT, "bench", java.time.Duration.ofSeconds(30)).tableId();
        }
        long bytes = 0;
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
            c.setAutoCommit(false);
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO " + relation + " (pk, sk, item) VALUES (?, ?, ?)")) {
                for (int i = 0; i < items; i++) {
                    Map<String, AttributeValue> a = new LinkedHashMap<>();
                    String pk = "customer-" + (i % 1000);
                    a.put("pk", AttributeValue.s(pk));
                    a.put("sk", AttributeValue.n(Integer.toString(i)));
                    a.put("status", AttributeValue.s(i % 3 == 0 ? "OPEN" : "SHIPPED"));
                    a.put("total", AttributeValue.n((i % 997) + "." + (i % 100)));
                    a.put("lines", new AttributeValue.L(List.of(AttributeValue.s("sku-" + (i % 50)), AttributeValue.n("2"))));
                    a.put("flags", new AttributeValue.M(Map.of("gift", new AttributeValue.Bool(i % 2 == 0))));
                    String json = ItemJson.encode(Item.of(a));
                    bytes += json.length();
                    insert.setBytes(1, KeyCodec.encodeString(pk));
                    insert.setBytes(2, KeyCodec.encodeNumber(new BigDecimal(i)));
                    insert.setString(3, json);
                    insert.executeUpdate();
                }
            }
            c.commit();
        }
        System.out.printf(Locale.ROOT, "BENCH %,d items, mean %.0f bytes of JSON%n", items, bytes / (double) items);
        com.sun.management.OperatingSystemMXBean cpu =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        Map<Boolean, List<double[]>> runs = new LinkedHashMap<>();
        try (SqliteStorage ro = SqliteStorage.openReadOnly(SqliteConfig.file(db).withPool(2, 1))) {
            for (int r = 0; r < rounds * 2; r++) {
                boolean checked = r % 2 == 1;
                long cpu0 = cpu.getProcessCpuTime();
                long t0 = System.nanoTime();
                ExportResult result = Exporter.export(ro.snapshots(), StorageCommand.DEFAULT_ACCOUNT, "bench",
                        Exporter.prepareOutput(dir.resolve("out-" + r)),
                        new dev.stillpoint.backup.ExportOptions(dev.stillpoint.backup.ExportFormat.STILLPOINT, checked,
                                dev.stillpoint.backup.ExportOptions.DEFAULT_ITEMS_PER_DATA_FILE), ExportListener.NONE,
                        dev.stillpoint.ports.out.StorageEvents.NONE);
                double wall = (System.nanoTime() - t0) / 1e6;
                double used = (cpu.getProcessCpuTime() - cpu0) / 1e6;
                if (result.items() != items) {
                    throw new AssertionError("exported " + result.items());
                }
                System.out.printf(Locale.ROOT, "BENCH round %d check %-3s wall %7.0f ms  cpu %7.0f ms%n", r / 2,
                        checked ? "on" : "off", wall, used);
                if (r >= 2) { // the first pair warms the JIT
                    runs.computeIfAbsent(checked, k -> new ArrayList<>()).add(new double[] {wall, used});
                }
            }
        }
        for (Map.Entry<Boolean, List<double[]>> e : runs.entrySet()) {
            System.out.printf(Locale.ROOT, "BENCH check %-3s median wall %7.0f ms  median cpu %7.0f ms%n",
                    e.getKey() ? "on" : "off", median(e.getValue(), 0), median(e.getValue(), 1));
        }
    }

    private static double median(List<double[]> runs, int column) {
        double[] v = runs.stream().mapToDouble(r -> r[column]).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
