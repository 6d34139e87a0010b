package dev.stillpoint.adapters.mongo.engine;

import static com.mongodb.client.model.Filters.and;
import static com.mongodb.client.model.Filters.eq;

import com.mongodb.ReadConcern;
import com.mongodb.client.ClientSession;
import com.mongodb.client.MongoCursor;
import com.mongodb.client.model.ReplaceOptions;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.Updates;
import dev.stillpoint.adapters.mongo.storage.ItemDocuments;
import dev.stillpoint.adapters.mongo.storage.KeyIds;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.itemjson.CatalogJson;
import dev.stillpoint.domain.table.CreateGsiRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.IndexStatus;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.domain.request.ItemRules;
import dev.stillpoint.domain.request.ItemWrite;
import dev.stillpoint.ports.out.ItemStorage;
import dev.stillpoint.ports.out.StorageTable;
import dev.stillpoint.ports.out.TableCatalog;
import dev.stillpoint.ports.out.TableStatistics;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.bson.BsonDocument;
import org.bson.BsonString;

/**
 * Table and item storage on MongoDB (the core's rules decide, this class stores). An item is one document in its table's collection
 * ({@code _id} from {@link KeyIds}, {@code item} from {@link ItemDocuments}); each index entry is a
 * document in the index's collection, {@code _id} the index key then the item key, {@code base} the
 * item's {@code _id}. A put or delete reads the catalog documents and writes the item and its entries
 * in one transaction (on a replica set), so an index never answers for a version its item lacks.
 */
final class MongoTables implements TableCatalog, ItemStorage, TableStatistics {

    /** Index entries written per batch while a GSI is backfilled. */
    private static final int BACKFILL_BATCH = 1000;
    /** Attempts of an UpdateTable that lost the race for the table's document. */
    private static final int MAX_ATTEMPTS = 16;

    private final Work work;
    private final MongoCatalog catalog;

    MongoTables(Work work, MongoCatalog catalog) {
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

    @Override
    public TableDescription addGlobalSecondaryIndex(String accountId, String tableName, CreateGsiRequest request,
                                                    UnaryOperator<TableDescription> rules) {
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            CatalogDocuments.Loaded loaded = table(null, accountId, tableName);
            TableDescription before = loaded.record().description();
            Optional<CatalogDocuments.IndexEntry> unfinished = unfinishedBackfill(loaded, before, request);
            if (unfinished.isPresent()) {
                // An earlier UpdateTable recorded this index and failed in its backfill: finish it.
                String doing = "resuming the backfill of index '" + unfinished.get().name() + "' of '" + tableName + "'";
                GlobalSecondaryIndex gsi = before.gsi(unfinished.get().name()).orElseThrow();
                backfill(loaded.baseCollection(), unfinished.get().collection(), before, gsi.name(), doing);
                activate(before.tableId(), gsi.name(), doing);
                return describeOrFail(accountId, tableName);
            }
            TableDescription after = rules.apply(before);
            GlobalSecondaryIndex gsi = after.gsi(request.index().name()).orElseThrow();
            int ordinal = loaded.table().getInt32("next_index_ordinal").getValue();
            BsonDocument indexDoc = CatalogDocuments.newIndex(before.tableId(), gsi.name(), true, ordinal,
                    gsi.keySchema(), gsi.projection(), IndexStatus.CREATING, true);
            String collection = indexDoc.getString("collection").getValue();
            String doing = "adding index '" + gsi.name() + "' to table '" + tableName + "'";
            // The collection exists before the catalog names it: a writer that sees the index can write to it.
            work.run(doing, () -> {
                work.dataDatabase().createCollection(collection);
                return null;
            });
            boolean recorded = work.write(doing, s -> {
                long updated = Work.update(catalog.tables(), s,
                        and(eq("_id", loaded.table().get("_id")), eq("rev", loaded.revision())),
                        Updates.combine(
                                Updates.set("attribute_definitions", CatalogJson.definitions(after.attributeDefinitions())),
                                Updates.set("next_index_ordinal", ordinal + 1), Updates.inc("rev", 1L)));
                if (updated == 1) {
                    Work.insert(catalog.indexes(), s, indexDoc);
                }
                return updated == 1;
            });
            if (!recorded) {
                work.run(doing, () -> {
                    work.data(collection).drop();
                    return null;
                });
                continue;
            }
            backfill(loaded.baseCollection(), collection, after, gsi.name(), doing);
            activate(before.tableId(), gsi.name(), doing);
            return describeOrFail(accountId, tableName);
        }
        throw new StorageException(ErrorReason.TRANSIENT, "table '" + tableName + "' changed " + MAX_ATTEMPTS
                + " times while index '" + request.index().name() + "' was being added; try again");
    }

    /** The index of this request, recorded CREATING by an earlier UpdateTable whose backfill did not finish. */
    private static Optional<CatalogDocuments.IndexEntry> unfinishedBackfill(CatalogDocuments.Loaded loaded,
                                                                            TableDescription table,
                                                                            CreateGsiRequest request) {
        GlobalSecondaryIndex wanted = request.index();
        return table.gsi(wanted.name())
                .filter(g -> g.status() == IndexStatus.CREATING && g.backfilling()
                        && g.keySchema().equals(wanted.keySchema()) && g.projection().equals(wanted.projection()))
                .flatMap(g -> loaded.indexEntries().stream().filter(i -> i.name().equals(g.name())).findFirst());
    }

    private void activate(String tableId, String indexName, String doing) {
        work.run(doing, () -> catalog.indexes().updateOne(
                eq("_id", CatalogDocuments.indexDocumentId(tableId, indexName)),
                Updates.combine(Updates.set("status", IndexStatus.ACTIVE.name()), Updates.set("backfilling", false))));
    }

    /**
     * Copies every item that has the index's key into the index's collection. The scan reads at
     * majority, outside any snapshot session (so a snapshot's round-trip count never includes it).
     * Writers that commit meanwhile maintain the index themselves: they read its CREATING document.
     */
    private void backfill(String baseCollection, String indexCollection, TableDescription table, String indexName,
                          String doing) {
        work.run(doing, () -> {
            ReplaceOptions upsert = new ReplaceOptions().upsert(true);
            try (MongoCursor<BsonDocument> items = work.data(baseCollection).withReadConcern(ReadConcern.MAJORITY)
                    .find().batchSize(BACKFILL_BATCH).iterator()) {
                while (items.hasNext()) {
                    BsonDocument doc = items.next();
                    String baseId = doc.getString("_id").getValue();
                    Item item = ItemDocuments.decode(doc.get("item"), "of collection " + baseCollection + " with _id " + baseId);
                    Optional<BsonDocument> entry = ItemRules.entryKeyOfStoredItem(table, indexName, item)
                            .map(k -> entry(k, baseId, doc));
                    if (entry.isPresent()) {
                        work.data(indexCollection).replaceOne(eq("_id", entry.get().get("_id")), entry.get(), upsert);
                    }
                }
            }
            return null;
        });
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
    public boolean versionedCatalog() {
        return false;
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
        Work.replace(work.data(loaded.baseCollection()), s, eq("_id", id), doc);
        for (CatalogDocuments.IndexEntry index : loaded.indexEntries()) {
            Work.deleteMany(work.data(index.collection()), s, eq("base", id));
            Optional<BsonDocument> entry = write.indexKey(index.name()).map(k -> entry(k, id, doc));
            if (entry.isPresent()) {
                Work.insert(work.data(index.collection()), s, entry.get());
            }
        }
    }

    /** Removes the item document under {@code id} and its index entries. */
    void remove(ClientSession s, CatalogDocuments.Loaded loaded, String id) {
        for (CatalogDocuments.IndexEntry index : loaded.indexEntries()) {
            Work.deleteMany(work.data(index.collection()), s, eq("base", id));
        }
        Work.deleteMany(work.data(loaded.baseCollection()), s, eq("_id", id));
    }

    /** The index entry of an item under its index key {@code indexKey}. */
    private static BsonDocument entry(Key indexKey, String baseId, BsonDocument itemDoc) {
        return new BsonDocument("_id", new BsonString(KeyIds.of(indexKey) + baseId))
                .append("base", new BsonString(baseId))
                .append("item", itemDoc.get("item"));
    }

    private TableDescription describeOrFail(String accountId, String tableName) {
        return describe(accountId, tableName).orElseThrow(() -> StorageException.tableNotFound(tableName));
    }

    private CatalogDocuments.Loaded table(ClientSession s, String accountId, String tableName) {
        return catalog.load(s, accountId, tableName).orElseThrow(() -> StorageException.tableNotFound(tableName));
    }

    /**
     * Counts from the server's own collection statistics ({@code collStats}: document count and
     * uncompressed data size), cheap at any size and approximate, as DynamoDB's counts are.
     */
    @Override
    public void recount() {
        List<BsonDocument> active = work.run("listing tables to recount", () -> catalog.tables()
                .find(eq("status", TableStatus.ACTIVE.name())).into(new java.util.ArrayList<>()));
        for (BsonDocument table : active) {
            String collection = table.getString("collection").getValue();
            BsonDocument stats = work.run("counting the items of collection " + collection, () ->
                    work.dataDatabase().runCommand(new BsonDocument("collStats", new BsonString(collection)),
                            BsonDocument.class));
            long items = stats.getNumber("count").longValue();
            long bytes = stats.getNumber("size").longValue();
            if (items != table.getInt64("item_count").getValue() || bytes != table.getInt64("size_bytes").getValue()) {
                work.run("recording the counts of collection " + collection, () -> catalog.tables().updateOne(
                        eq("_id", table.get("_id")), Updates.combine(Updates.set("item_count", items),
                                Updates.set("size_bytes", bytes))));
            }
        }
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
