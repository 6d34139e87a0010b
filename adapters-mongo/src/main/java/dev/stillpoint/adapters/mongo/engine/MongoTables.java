package dev.stillpoint.adapters.mongo.engine;

import static com.mongodb.client.model.Filters.and;
import static com.mongodb.client.model.Filters.eq;

import com.mongodb.client.ClientSession;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.Updates;
import dev.stillpoint.adapters.mongo.storage.ItemDocuments;
import dev.stillpoint.adapters.mongo.storage.KeyIds;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.table.IndexStatus;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.domain.request.ItemWrite;
import dev.stillpoint.ports.out.IndexBuild;
import dev.stillpoint.ports.out.ItemStorage;
import dev.stillpoint.ports.out.StorageTable;
import dev.stillpoint.ports.out.TableCatalog;
import dev.stillpoint.ports.out.TableStatistics;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.bson.BsonDocument;
import org.bson.BsonString;
import org.bson.BsonValue;

/**
 * Table and item storage on MongoDB (the core's rules decide, this class stores). An item is one document in its table's collection
 * ({@code _id} from {@link KeyIds}, {@code item} from {@link ItemDocuments}); each index entry is a
 * document in the index's collection, {@code _id} the index key then the item key, {@code base} the
 * item's {@code _id}. A put or delete reads the catalog documents and writes the item and its entries
 * in one transaction (on a replica set), so an index never answers for a version its item lacks.
 */
final class MongoTables implements TableCatalog, ItemStorage, TableStatistics {

    private final Transactions work;
    private final MongoCatalog catalog;

    MongoTables(Transactions work, MongoCatalog catalog) {
        this.work = work;
        this.catalog = catalog;
    }

    @Override
    public Optional<TableDescription> describe(String accountId, String tableName) {
        return catalog.find(accountId, tableName).map(r -> r.description());
    }

    @Override
    public List<String> tableNames(String accountId) {
        return catalog.names(accountId);
    }

    /** Not one transaction: each step of {@link MongoIndexBuild} is applied when the core calls it. */
    @Override
    public <T> T inIndexBuild(String doing, IndexBuild.BuildWork<T> build) {
        return build.run(new MongoIndexBuild(work, catalog, doing));
    }

    /**
     * One transaction on a replica set (withTransaction may run the work again, so the core's work starts
     * from its reads each time); on a standalone server the unit is not atomic: each change runs on its own.
     */
    @Override
    public <T> T inUnit(String doing, UnitWork<T> unitWork) {
        return work.write(doing, s -> unitWork.run(new MongoItemUnit(this, s)));
    }

    @Override
    public Optional<StorageTable> table(String accountId, String tableName) {
        return load(null, accountId, tableName);
    }

    @Override
    public Optional<Item> read(StorageTable table, Key key) {
        CatalogDocuments.Loaded loaded = (CatalogDocuments.Loaded) table;
        String id = KeyIds.of(key);
        return work.run("reading an item of table '" + table.description().tableName() + "'", () -> {
            BsonDocument doc = work.data(loaded.baseCollection()).find(eq("_id", id)).first();
            return doc == null ? Optional.<Item>empty() : Optional.of(DocumentPages.decode(doc,
                    loaded.baseCollection()).item());
        });
    }

    /** The table's documents in {@code s} (none: outside a transaction). */
    Optional<StorageTable> load(ClientSession s, String accountId, String tableName) {
        return catalog.load(s, accountId, tableName).map(StorageTable.class::cast);
    }

    /** Replaces the item document and exactly its index entries. */
    void store(ClientSession s, CatalogDocuments.Loaded loaded, ItemWrite write) {
        String id = KeyIds.of(write.key());
        BsonDocument doc = new BsonDocument("_id", new BsonString(id)).append("item", ItemDocuments.encode(write.item()));
        Transactions.replace(work.data(loaded.baseCollection()), s, eq("_id", id), doc);
        for (CatalogDocuments.IndexEntry index : loaded.indexEntries()) {
            Transactions.deleteMany(work.data(index.collection()), s, eq("base", id));
            Optional<BsonDocument> entry = write.indexKey(index.name()).map(k -> entry(k, id, doc));
            if (entry.isPresent()) {
                Transactions.insert(work.data(index.collection()), s, entry.get());
            }
        }
    }

    /** Removes the item document under {@code id} and its index entries. */
    void remove(ClientSession s, CatalogDocuments.Loaded loaded, String id) {
        for (CatalogDocuments.IndexEntry index : loaded.indexEntries()) {
            Transactions.deleteMany(work.data(index.collection()), s, eq("base", id));
        }
        Transactions.deleteMany(work.data(loaded.baseCollection()), s, eq("_id", id));
    }

    /** The index entry of an item under its index key {@code indexKey}. */
    static BsonDocument entry(Key indexKey, String baseId, BsonDocument itemDoc) {
        return new BsonDocument("_id", new BsonString(KeyIds.of(indexKey) + baseId))
                .append("base", new BsonString(baseId))
                .append("item", itemDoc.get("item"));
    }

    private CatalogDocuments.Loaded table(ClientSession s, String accountId, String tableName) {
        return catalog.load(s, accountId, tableName).orElseThrow(() -> StorageException.tableNotFound(tableName));
    }

    /**
     * An ACTIVE table's document {@code _id} and collection and the entries collection of each of its ACTIVE
     * indexes by index name, with the counts the documents hold.
     */
    private record Counted(BsonValue id, String tableId, String collection, Map<String, String> indexCollections,
                           Counts recorded) implements TableStatistics.Counted {
    }

    @Override
    public List<TableStatistics.Counted> activeTables() {
        return work.run("listing tables to recount", () -> {
            List<TableStatistics.Counted> out = new ArrayList<>();
            for (BsonDocument t : catalog.tables().find(eq("status", TableStatus.ACTIVE.name()))) {
                String tableId = t.getString("table_id").getValue();
                Map<String, String> collections = new HashMap<>();
                Map<String, Counts> recorded = new HashMap<>();
                for (BsonDocument i : catalog.indexes().find(and(eq("table_id", tableId),
                        eq("status", IndexStatus.ACTIVE.name())))) {
                    String name = i.getString("index_name").getValue();
                    collections.put(name, i.getString("collection").getValue());
                    recorded.put(name, new Counts(CatalogDocuments.count(i, "item_count"),
                            CatalogDocuments.count(i, "size_bytes")));
                }
                out.add(new Counted(t.get("_id"), tableId, t.getString("collection").getValue(), collections,
                        new Counts(t.getInt64("item_count").getValue(), t.getInt64("size_bytes").getValue(), recorded)));
            }
            return out;
        });
    }

    /**
     * Counts from the server's own collection statistics ({@code collStats}: document count and
     * uncompressed data size) of the table's collection and of each ACTIVE index's entries collection,
     * cheap at any size and approximate, as DynamoDB's counts are.
     */
    @Override
    public Counts count(TableStatistics.Counted table) {
        Counted t = (Counted) table;
        Map<String, Counts> indexes = new HashMap<>();
        t.indexCollections().forEach((name, collection) -> indexes.put(name, collectionCounts(collection)));
        Counts base = collectionCounts(t.collection());
        return new Counts(base.items(), base.bytes(), indexes);
    }

    private Counts collectionCounts(String collection) {
        BsonDocument stats = work.run("counting the items of collection " + collection, () ->
                work.dataDatabase().runCommand(new BsonDocument("collStats", new BsonString(collection)),
                        BsonDocument.class));
        return new Counts(stats.getNumber("count").longValue(), stats.getNumber("size").longValue());
    }

    @Override
    public void record(TableStatistics.Counted table, Counts counts) {
        Counted t = (Counted) table;
        work.run("recording the counts of collection " + t.collection(), () -> {
            catalog.tables().updateOne(eq("_id", t.id()), Updates.combine(Updates.set("item_count", counts.items()),
                    Updates.set("size_bytes", counts.bytes())));
            counts.indexes().forEach((name, index) -> catalog.indexes().updateOne(
                    and(eq("table_id", t.tableId()), eq("index_name", name)),
                    Updates.combine(Updates.set("item_count", index.items()), Updates.set("size_bytes", index.bytes()))));
            return null;
        });
    }

    /** For tests and operators: the ids of the entries of an index, in {@code _id} order. */
    List<String> entryIds(String accountId, String tableName, String indexName) {
        CatalogDocuments.Loaded loaded = table(null, accountId, tableName);
        String collection = loaded.indexEntries().stream().filter(i -> i.name().equals(indexName)).findFirst()
                .orElseThrow(() -> StorageException.validation("table '" + tableName + "' has no index '" + indexName
                        + "'")).collection();
        return work.run("listing index entries", () -> work.data(collection).find().sort(Sorts.ascending("_id"))
                .map(d -> d.getString("_id").getValue()).into(new java.util.ArrayList<>()));
    }
}
