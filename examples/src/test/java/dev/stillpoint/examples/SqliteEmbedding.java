package dev.stillpoint.examples;

import dev.stillpoint.adapters.sqlite.SqliteConfig;
import dev.stillpoint.adapters.sqlite.SqliteStorage;
import dev.stillpoint.backup.TableExport;
import dev.stillpoint.core.TableWaiter;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.Projection;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

class SqliteEmbedding {
    static List<String> run(Path dir) {
        List<String> items = new ArrayList<>();
        try (var storage = SqliteStorage.open(SqliteConfig.file(dir.resolve("stillpoint.db")))) {
            var tables = storage.tables();
            tables.createTable(CreateTableRequest.builder("acct", "orders")
                    .partitionKey("customer", ScalarType.S).sortKey("placed", ScalarType.N)
                    .globalIndex("by_status", "status", ScalarType.S, Projection.all()).build());
            TableWaiter.awaitActive(tables, "acct", "orders", Duration.ofSeconds(10));
            tables.putItem("acct", "orders", Item.of(Map.of("customer", AttributeValue.s("ada"),
                    "placed", AttributeValue.n("1700000000"), "status", AttributeValue.s("shipped"))));
            TableExport.to(dir.resolve("export")).run(storage, "acct", "orders");
            try (var snapshot = storage.snapshots().openTableSnapshot("acct", "orders")) {
                tables.deleteTable("acct", "orders"); // never waits behind the open snapshot
                for (var stream = snapshot.items(); stream.hasNext(); ) {
                    items.add(stream.next().json()); // still the table as it was when opened
                }
            }
            TableWaiter.awaitDeleted(tables, "acct", "orders", Duration.ofSeconds(10));
        }
        return items;
    }
}
