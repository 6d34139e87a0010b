package dev.stillpoint.properties.kit.selftest;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.item.ItemLimits;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.lifecycle.TableState;
import dev.stillpoint.domain.table.CreateGsiRequest;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.IndexStatus;
import dev.stillpoint.domain.table.RestoreSummary;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.domain.table.ThroughputModeSummary;
import dev.stillpoint.ports.out.PendingTransition;
import dev.stillpoint.ports.out.TableRecord;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import dev.stillpoint.domain.request.ItemChange;
import dev.stillpoint.domain.request.ItemWrite;
import java.util.UUID;

/**
 * The reference adapter's "database": catalog rows and items in memory, one monitor for every
 * operation, so each operation is atomic and every reader sees a committed state. Shared by every
 * engine one {@link ReferenceFixture} starts, as a real database would be.
 */
final class ReferenceDatabase {

    private static final class Row {
        TableDescription description;
        TableState state;
        final Map<Key, Item> items = new HashMap<>();

        Row(TableDescription description, TableState state) {
            this.description = description;
            this.state = state;
        }
    }

    /** A consistent copy of one table: its description and items at one commit. */
    record Copy(TableDescription description, List<Item> items, long commit) {
    }

    private final Map<String, Row> rows = new HashMap<>();
    private final int numberDigits;
    private long commits;

    /** A database storing numbers of at most {@code numberDigits} significant digits (38, or 34 like Decimal128). */
    ReferenceDatabase(int numberDigits) {
        this.numberDigits = numberDigits;
    }

    private static String id(String account, String table) {
        return account + "/" + table;
    }

    private Row row(String account, String table) {
        Row row = rows.get(id(account, table));
        if (row == null) {
            throw StorageException.tableNotFound(table);
        }
        return row;
    }

    synchronized Optional<TableRecord> find(String account, String table) {
        Row row = rows.get(id(account, table));
        return row == null ? Optional.empty() : Optional.of(new TableRecord(describe(row), row.state));
    }

    synchronized TableDescription insertCreating(CreateTableRequest request, Instant activateAt) {
        String key = id(request.accountId(), request.tableName());
        if (rows.containsKey(key)) {
            throw StorageException.resourceInUse("table '" + request.tableName() + "' exists");
        }
        String tableId = UUID.randomUUID().toString().replace("-", "");
        TableDescription d = request.describe(tableId, "arn:stillpoint:reference:" + request.accountId() + ":table/"
                + request.tableName(), Instant.now().truncatedTo(ChronoUnit.MILLIS));
        rows.put(key, new Row(d, new TableState.Creating(activateAt)));
        commits++;
        return describe(rows.get(key));
    }

    synchronized boolean markActive(String account, String table) {
        Row row = rows.get(id(account, table));
        if (row == null || !(row.state instanceof TableState.Creating)) {
            return false;
        }
        TableDescription d = row.description.withStatus(TableStatus.ACTIVE);
        for (GlobalSecondaryIndex g : d.globalSecondaryIndexes()) {
            if (g.status() == IndexStatus.CREATING) {
                d = d.withIndexStatus(g.name(), IndexStatus.ACTIVE);
            }
        }
        row.description = d;
        row.state = new TableState.Active();
        commits++;
        return true;
    }

    /** The reference's "catalog of relations": one per table, one per GSI and LSI of a table, while its row exists. */
    synchronized java.util.Set<String> relations() {
        java.util.Set<String> out = new java.util.TreeSet<>();
        rows.forEach((id, row) -> {
            out.add(id);
            row.description.globalSecondaryIndexes().forEach(g -> out.add(id + "#gsi:" + g.name()));
            row.description.localSecondaryIndexes().forEach(l -> out.add(id + "#lsi:" + l.name()));
        });
        return out;
    }

    /** Rewrites the table's attribute definitions, as a hand-edited catalog would. */
    synchronized void writeDefinitions(String account, String table, List<AttributeDefinition> definitions) {
        Row row = rows.get(id(account, table));
        TableDescription d = row.description;
        row.description = new TableDescription(d.accountId(), d.tableName(), d.tableId(), d.tableArn(), d.status(),
                d.creationTime(), d.keySchema(),
                definitions,
                d.globalSecondaryIndexes(), d.localSecondaryIndexes(), d.vectorIndexes(), d.streamSpecification(),
                d.timeToLive(), d.restoreSummary(), d.throughputModeSummary(), d.itemCount(), d.tableSizeBytes());
    }

    synchronized List<PendingTransition> pendingTransitions() {
        List<PendingTransition> out = new ArrayList<>();
        rows.values().forEach(row -> {
            if (row.state instanceof TableState.Creating || row.state instanceof TableState.Deleting) {
                out.add(new PendingTransition(row.description.accountId(), row.description.tableName(), row.state));
            }
        });
        return out;
    }

    /** A drop attempt's outcome, applied in one step (the attempt's commit). */
    synchronized void commitDrop(String account, String table, Optional<TableState.Deleting> deleting, boolean remove) {
        Row row = rows.get(id(account, table));
        if (row == null) {
            return;
        }
        if (remove) {
            rows.remove(id(account, table));
        } else if (deleting.isPresent()) {
            row.state = deleting.get();
            row.description = row.description.withStatus(TableStatus.DELETING);
        }
        commits++;
    }

    synchronized TableDescription describe(String account, String table) {
        return describe(row(account, table));
    }

    synchronized List<String> tableNames(String account) {
        return rows.values().stream().map(r -> r.description)
                .filter(d -> d.accountId().equals(account)).map(TableDescription::tableName).sorted().toList();
    }

    /**
     * The item writes of one unit of work, as the core's write sequence decided them: every number
     * checked first, then every change, under the one lock (a transaction).
     */
    synchronized void apply(String account, Map<String, List<ItemChange>> changes) {
        changes.forEach((table, tableChanges) -> {
            row(account, table);
            tableChanges.forEach(c -> {
                if (c instanceof ItemChange.Put p) {
                    requireStorableNumbers(p.write().item());
                }
            });
        });
        changes.forEach((table, tableChanges) -> {
            Row row = row(account, table);
            tableChanges.forEach(c -> {
                if (c instanceof ItemChange.Put p) {
                    row.items.put(p.key(), p.write().item());
                } else {
                    row.items.remove(c.key());
                }
            });
        });
        commits++;
    }

    /** A flawed PutItem's storage step: its own rules decide against the row's definition, past the core. */
    synchronized void put(String account, String table, Function<TableDescription, ItemWrite> rules) {
        ItemWrite write = rules.apply(describe(row(account, table)));
        apply(account, Map.of(table, List.of(new ItemChange.Put(write))));
    }

    /** GetItem's storage step. */
    synchronized Optional<Item> read(String account, String table, Key key) {
        return Optional.ofNullable(row(account, table).items.get(key));
    }

    /** UpdateTable's storage step: the reference backfills at once, so the index is ACTIVE when it returns. */
    synchronized void addGsi(String account, String table, TableDescription after) {
        Row row = row(account, table);
        row.description = after;
        commits++;
    }

    private void requireStorableNumbers(Item item) {
        item.attributes().forEach((name, value) -> {
            if (value instanceof AttributeValue.N n && significantDigits(n.text()) > numberDigits) {
                throw StorageException.validation("attribute '" + name + "' holds the number " + n.text()
                        + ", which has more than the " + numberDigits + " significant digits this database stores");
            }
        });
    }

    synchronized void recordRestore(String account, String table, RestoreSummary summary) {
        Row row = row(account, table);
        row.description = withRestore(row.description, Optional.of(summary));
        commits++;
    }

    /** The table's description and every item, at one commit. */
    synchronized Copy copy(String account, String table) {
        Row row = row(account, table);
        return new Copy(describe(row), new ArrayList<>(row.items.values()), commits);
    }

    /** The live items, as they are now. */
    synchronized List<Item> liveItems(String account, String table) {
        return new ArrayList<>(row(account, table).items.values());
    }

    private static int significantDigits(String canonical) {
        String digits = canonical.replace("-", "").replace(".", "").replaceFirst("^0+", "").replaceFirst("0+$", "");
        return digits.length();
    }

    /** DescribeTable: the row with its running counts and a throughput summary, both of which a snapshot clears. */
    private static TableDescription describe(Row row) {
        TableDescription d = row.description;
        long size = row.items.values().stream().mapToLong(Item::sizeInBytes).sum();
        return new TableDescription(d.accountId(), d.tableName(), d.tableId(), d.tableArn(), d.status(),
                d.creationTime(), d.keySchema(), d.attributeDefinitions(), d.globalSecondaryIndexes(),
                d.localSecondaryIndexes(), d.vectorIndexes(), d.streamSpecification(), d.timeToLive(),
                d.restoreSummary(), Optional.of(new ThroughputModeSummary("PAY_PER_REQUEST", d.creationTime())),
                row.items.size(), size);
    }

    static TableDescription withRestore(TableDescription d, Optional<RestoreSummary> restore) {
        return new TableDescription(d.accountId(), d.tableName(), d.tableId(), d.tableArn(), d.status(),
                d.creationTime(), d.keySchema(), d.attributeDefinitions(), d.globalSecondaryIndexes(),
                d.localSecondaryIndexes(), d.vectorIndexes(), d.streamSpecification(), d.timeToLive(),
                restore, d.throughputModeSummary(), d.itemCount(), d.tableSizeBytes());
    }
}
