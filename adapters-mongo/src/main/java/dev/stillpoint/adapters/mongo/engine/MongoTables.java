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
import dev.stillpoint.domain.item.ItemLimits;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.item.Names;
import dev.stillpoint.domain.item.Utf8Text;
import dev.stillpoint.domain.table.CatalogJson;
import dev.stillpoint.domain.table.CreateGsiRequest;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.IndexStatus;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.in.TableOperations;
import dev.stillpoint.ports.lifecycle.TableCreation;
import java.util.List;
import java.util.Optional;
import org.bson.BsonDocument;
import org.bson.BsonString;

/**
 * Table and item operations on MongoDB. An item is one document in its table's collection
 * ({@code _id} from {@link KeyIds}, {@code item} from {@link ItemDocuments}); each index entry is a
 * document in the index's collection, {@code _id} the index key then the item key, {@code base} the
 * item's {@code _id}. A put or delete reads the catalog documents and writes the item and its entries
 * in one transaction (on a replica set), so an index never answers for a version its item lacks.
 */
final class MongoTables implements TableOperations {

    /** Index entries written per batch while a GSI is backfilled. */
    private static final int BACKFILL_BATCH = 1000;
    /** Attempts of an UpdateTable that lost the race for the table's document. */
    private static final int MAX_ATTEMPTS = 16;

    private final Work work;
    private final MongoCatalog catalog;
    private final TableCreation creation;
    private final InlineDeletion deletion;

    MongoTables(Work work, MongoCatalog catalog, TableCreation creation, InlineDeletion deletion) {
        this.work = work;
        this.catalog = catalog;
        this.creation = creation;
        this.deletion = deletion;
    }

    @Override
    public TableDescription createTable(CreateTableRequest request) {
        return creation.createTable(request);
    }

    @Override
    public TableDescription describeTable(String accountId, String tableName) {
        Names.requireTableName(tableName);
        return catalog.find(accountId, tableName).orElseThrow(() -> StorageException.tableNotFound(tableName))
                .description();
    }

    @Override
    public List<String> listTables(String accountId) {
        return catalog.names(accountId);
    }

    @Override
    public TableDescription deleteTable(String accountId, String tableName) {
        Names.requireTableName(tableName);
        return deletion.deleteTable(accountId, tableName);
    }

    @Override
    public TableDescription addGlobalSecondaryIndex(String accountId, String tableName, CreateGsiRequest request) {
        Names.requireTableName(tableName);
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            CatalogDocuments.Loaded loaded = active(null, accountId, tableName);
            TableDescription before = loaded.record().description();
            Optional<CatalogDocuments.IndexEntry> unfinished = unfinishedBackfill(loaded, before, request);
            if (unfinished.isPresent()) {
                // An earlier UpdateTable recorded this index and failed in its backfill: finish it.
                String doing = "resuming the backfill of index '" + unfinished.get().name() + "' of '" + tableName + "'";
                GlobalSecondaryIndex gsi = before.gsi(unfinished.get().name()).orElseThrow();
                backfill(loaded.baseCollection(), unfinished.get().collection(), gsi, doing);
                activate(before.tableId(), gsi.name(), doing);
                return describeTable(accountId, tableName);
            }
            TableDescription after = before.applyCreateGsi(request);
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
            backfill(loaded.baseCollection(), collection, gsi, doing);
            activate(before.tableId(), gsi.name(), doing);
            return describeTable(accountId, tableName);
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
    private void backfill(String baseCollection, String indexCollection, GlobalSecondaryIndex gsi, String doing) {
        work.run(doing, () -> {
            ReplaceOptions upsert = new ReplaceOptions().upsert(true);
            try (MongoCursor<BsonDocument> items = work.data(baseCollection).withReadConcern(ReadConcern.MAJORITY)
                    .find().batchSize(BACKFILL_BATCH).iterator()) {
                while (items.hasNext()) {
                    BsonDocument doc = items.next();
                    String baseId = doc.getString("_id").getValue();
                    Item item = ItemDocuments.decode(doc.get("item"), "of collection " + baseCollection + " with _id " + baseId);
                    Optional<BsonDocument> entry = entry(gsi.keySchema(), baseId, item, doc);
                    if (entry.isPresent()) {
                        work.data(indexCollection).replaceOne(eq("_id", entry.get().get("_id")), entry.get(), upsert);
                    }
                }
            }
            return null;
        });
    }

    @Override
    public void putItem(String accountId, String tableName, Item item) {
        Names.requireTableName(tableName);
        work.write("writing an item of table '" + tableName + "'", s -> {
            CatalogDocuments.Loaded loaded = active(s, accountId, tableName);
            TableDescription d = loaded.record().description();
            Item valid = ItemLimits.validateForPut(item, d.keySchema(), d.attributeDefinitions());
            String id = KeyIds.of(Key.of(valid, d.keySchema()));
            BsonDocument doc = new BsonDocument("_id", new BsonString(id)).append("item", ItemDocuments.encode(valid));
            Work.replace(work.data(loaded.baseCollection()), s, eq("_id", id), doc);
            for (CatalogDocuments.IndexEntry index : loaded.indexEntries()) {
                Work.deleteMany(work.data(index.collection()), s, eq("base", id));
                Optional<BsonDocument> entry = entry(index.keySchema(), id, valid, doc);
                if (entry.isPresent()) {
                    Work.insert(work.data(index.collection()), s, entry.get());
                }
            }
            return null;
        });
    }

    /** The index entry of an item, or empty when the item lacks a scalar value for the index's key. */
    private static Optional<BsonDocument> entry(dev.stillpoint.domain.key.KeySchema indexKey, String baseId, Item item,
                                                BsonDocument itemDoc) {
        return KeyIds.under(indexKey, item).map(indexId -> new BsonDocument("_id", new BsonString(indexId + baseId))
                .append("base", new BsonString(baseId))
                .append("item", itemDoc.get("item")));
    }

    @Override
    public Optional<Item> getItem(String accountId, String tableName, Key key) {
        Names.requireTableName(tableName);
        CatalogDocuments.Loaded loaded = active(null, accountId, tableName);
        String id = KeyIds.of(checkedKey(loaded, key));
        return work.run("reading an item of table '" + tableName + "'", () -> {
            BsonDocument doc = work.data(loaded.baseCollection()).find(eq("_id", id)).first();
            return doc == null ? Optional.<Item>empty() : Optional.of(DocumentPages.decode(doc,
                    loaded.baseCollection()).item());
        });
    }

    @Override
    public void deleteItem(String accountId, String tableName, Key key) {
        Names.requireTableName(tableName);
        work.write("deleting an item of table '" + tableName + "'", s -> {
            CatalogDocuments.Loaded loaded = active(s, accountId, tableName);
            String id = KeyIds.of(checkedKey(loaded, key));
            for (CatalogDocuments.IndexEntry index : loaded.indexEntries()) {
                Work.deleteMany(work.data(index.collection()), s, eq("base", id));
            }
            Work.deleteMany(work.data(loaded.baseCollection()), s, eq("_id", id));
            return null;
        });
    }

    /** The key, checked against the table's schema and definitions, numbers normalised. */
    private static Key checkedKey(CatalogDocuments.Loaded loaded, Key key) {
        TableDescription d = loaded.record().description();
        Key valid = ItemLimits.validateKey(d.tableName(), key, d.keySchema(), d.attributeDefinitions());
        return Utf8Text.requireWellFormed(valid, "MongoDB");
    }

    private CatalogDocuments.Loaded active(ClientSession s, String accountId, String tableName) {
        CatalogDocuments.Loaded loaded = catalog.load(s, accountId, tableName)
                .orElseThrow(() -> StorageException.tableNotFound(tableName));
        TableStatus status = loaded.record().description().status();
        if (status != TableStatus.ACTIVE) {
            throw new StorageException(status == TableStatus.CREATING ? ErrorReason.TABLE_NOT_FOUND
                    : ErrorReason.RESOURCE_IN_USE, "table '" + tableName + "' is " + status + ", not ACTIVE");
        }
        return loaded;
    }

    /** For tests and operators: the ids of the entries of an index, in {@code _id} order. */
    List<String> entryIds(String accountId, String tableName, String indexName) {
        CatalogDocuments.Loaded loaded = active(null, accountId, tableName);
        String collection = loaded.indexEntries().stream().filter(i -> i.name().equals(indexName)).findFirst()
                .orElseThrow(() -> StorageException.validation("table '" + tableName + "' has no index '" + indexName
                        + "'")).collection();
        return work.run("listing index entries", () -> work.data(collection).find().sort(Sorts.ascending("_id"))
                .map(d -> d.getString("_id").getValue()).into(new java.util.ArrayList<>()));
    }
}
