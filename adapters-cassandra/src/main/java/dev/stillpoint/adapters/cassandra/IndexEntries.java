package dev.stillpoint.adapters.cassandra;

import com.datastax.oss.driver.api.core.cql.BoundStatement;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.itemjson.ItemJson;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * An item's index entries, kept by rules 2 and 3 of {@link CassandraItems}: every entry written and
 * deleted at the revision of the item version that caused it, and indexes recorded while a write ran
 * followed by its second look at the catalog.
 */
final class IndexEntries {

    /** Index writes whose item texts total at most this go as one logged batch (Cassandra warns above 5 KiB). */
    static final long BATCH_BYTES = 5 * 1024;

    private final Cql cql;
    private final CatalogStore catalog;

    IndexEntries(Cql cql, CatalogStore catalog) {
        this.cql = cql;
        this.catalog = catalog;
    }

    /**
     * Writes and deletes the entries of {@code indexes} for the change {@code before} -> {@code after}
     * of one item, at the change's revision: one logged batch for small items, concurrent single
     * statements for large ones (rule 2 makes their order irrelevant).
     */
    void maintain(CatalogRow row, List<IndexDef> indexes, CqlKey key, Optional<Item> before,
                  Optional<Item> after, long rev) {
        List<BoundStatement> batch = new ArrayList<>();
        long bytes = 0;
        TableDescription table = row.description();
        for (IndexDef index : indexes) {
            Optional<CqlKey> oldKey = before.flatMap(i -> CqlKey.inIndex(row, table, index, i));
            Optional<CqlKey> newKey = after.flatMap(i -> CqlKey.inIndex(row, table, index, i));
            if (oldKey.isPresent() && !oldKey.equals(newKey)) {
                batch.add(delete(row, index, oldKey.get(), key, rev));
            }
            if (newKey.isPresent()) {
                BoundStatement insert = insert(row, index, newKey.get(), key, after.get(), rev);
                bytes += insert.getString("item").length();
                batch.add(insert);
            }
        }
        cql.runAll("maintaining the indexes of '" + row.tableName() + "'", batch, bytes, BATCH_BYTES);
    }

    /** Rule 3: indexes recorded since this write read the catalog get their entries too. */
    void followCatalog(CatalogRow row, CqlKey key, Optional<Item> before, Optional<Item> after, long rev) {
        Optional<CatalogRow> now = catalog.find(row.accountId(), row.tableName());
        if (now.isEmpty() || !now.get().tableId().equals(row.tableId())) {
            return;
        }
        Set<String> known = new HashSet<>();
        row.indexes().forEach(i -> known.add(i.relation()));
        List<IndexDef> added = now.get().indexes().stream().filter(i -> !known.contains(i.relation())).toList();
        if (!added.isEmpty()) {
            maintain(now.get(), added, key, before, after, rev);
        }
    }

    /** The statement writing {@code item}'s entry under {@code key} in {@code index}, at {@code rev}. */
    BoundStatement insert(CatalogRow row, IndexDef index, CqlKey key, CqlKey base, Item item, long rev) {
        return cql.bind("writing an entry of index '" + index.name() + "'", ItemStatements.insertEntry(row, index),
                ItemStatements.values(key, base,
                        ItemJson.encode(index.projection().entryOf(row.keySchema(), index.keySchema(), item)), rev));
    }

    private BoundStatement delete(CatalogRow row, IndexDef index, CqlKey key, CqlKey base, long rev) {
        return cql.bind("deleting an entry of index '" + index.name() + "'", ItemStatements.deleteEntry(row, index),
                ItemStatements.values(rev, key, base));
    }
}
