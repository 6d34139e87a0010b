package dev.stillpoint.adapters.mongo.engine;

import static com.mongodb.client.model.Filters.and;
import static com.mongodb.client.model.Filters.eq;

import com.mongodb.ReadConcern;
import com.mongodb.client.MongoCursor;
import com.mongodb.client.model.ReplaceOptions;
import com.mongodb.client.model.Updates;
import dev.stillpoint.adapters.mongo.storage.ItemDocuments;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.IndexStatus;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.itemjson.CatalogJson;
import dev.stillpoint.ports.out.BackfillEntry;
import dev.stillpoint.ports.out.BaseItem;
import dev.stillpoint.ports.out.IndexBuild;
import dev.stillpoint.ports.out.ItemScan;
import dev.stillpoint.ports.out.StorageTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.bson.BsonDocument;

/**
 * The steps of adding a GSI on MongoDB, each applied when called (not atomic): the index collection is
 * created before the catalog names it (so a writer that sees the index can write to it), the index is
 * recorded CREATING conditional on the table document's {@code rev}, the backfill reads at majority
 * outside any session (so a snapshot's round-trip count never includes it) and upserts each entry, and a
 * later attempt finishes an index an earlier one left CREATING. Writers that commit meanwhile maintain
 * the index themselves: they read its CREATING document.
 */
final class MongoIndexBuild implements IndexBuild {

    /** Documents the driver fetches per round trip of the backfill's scan. */
    private static final int BATCH = 1000;

    private final Transactions work;
    private final MongoCatalog catalog;
    private final String doing;

    MongoIndexBuild(Transactions work, MongoCatalog catalog, String doing) {
        this.work = work;
        this.catalog = catalog;
        this.doing = doing;
    }

    /** The table's base collection and the index's, under the definition holding the index. */
    private record Target(TableDescription description, String baseCollection, String indexCollection)
            implements StorageTable {
    }

    /** A base document: its {@code _id}, the document, and the item decoded from it. */
    private record Document(String id, BsonDocument document, Item item) implements BaseItem {
    }

    @Override
    public boolean atomic() {
        return false;
    }

    @Override
    public Optional<StorageTable> load(String accountId, String tableName) {
        return catalog.load(null, accountId, tableName).map(StorageTable.class::cast);
    }

    @Override
    public Optional<StorageTable> record(StorageTable table, TableDescription after, String indexName) {
        CatalogDocuments.Loaded loaded = (CatalogDocuments.Loaded) table;
        GlobalSecondaryIndex gsi = after.gsi(indexName).orElseThrow();
        int ordinal = loaded.table().getInt32("next_index_ordinal").getValue();
        BsonDocument indexDoc = CatalogDocuments.newIndex(after.tableId(), gsi.name(), true, ordinal,
                gsi.keySchema(), gsi.projection(), IndexStatus.CREATING, true);
        String collection = indexDoc.getString("collection").getValue();
        work.run(doing, () -> {
            work.dataDatabase().createCollection(collection);
            return null;
        });
        boolean recorded = work.write(doing, s -> {
            long updated = Transactions.update(catalog.tables(), s,
                    and(eq("_id", loaded.table().get("_id")), eq("rev", loaded.revision())),
                    Updates.combine(
                            Updates.set("attribute_definitions", CatalogJson.definitions(after.attributeDefinitions())),
                            Updates.set("next_index_ordinal", ordinal + 1), Updates.inc("rev", 1L)));
            if (updated == 1) {
                Transactions.insert(catalog.indexes(), s, indexDoc);
            }
            return updated == 1;
        });
        if (!recorded) {
            work.run(doing, () -> {
                work.data(collection).drop();
                return null;
            });
            return Optional.empty();
        }
        return Optional.of(new Target(after, loaded.baseCollection(), collection));
    }

    @Override
    public StorageTable resume(StorageTable table, String indexName) {
        CatalogDocuments.Loaded loaded = (CatalogDocuments.Loaded) table;
        String collection = loaded.indexEntries().stream().filter(i -> i.name().equals(indexName)).findFirst()
                .orElseThrow().collection();
        return new Target(loaded.description(), loaded.baseCollection(), collection);
    }

    @Override
    public ItemScan scan(StorageTable table) {
        String base = ((Target) table).baseCollection();
        MongoCursor<BsonDocument> cursor = work.run(doing, () -> work.data(base)
                .withReadConcern(ReadConcern.MAJORITY).find().batchSize(BATCH).iterator());
        return new ItemScan() {
            @Override
            public List<BaseItem> next(int max) {
                return work.run(doing, () -> {
                    List<BaseItem> page = new ArrayList<>(max);
                    while (page.size() < max && cursor.hasNext()) {
                        BsonDocument doc = cursor.next();
                        String id = doc.getString("_id").getValue();
                        page.add(new Document(id, doc, ItemDocuments.decode(doc.get("item"),
                                "of collection " + base + " with _id " + id)));
                    }
                    return page;
                });
            }

            @Override
            public void close() {
                cursor.close();
            }
        };
    }

    /** Upserts each entry, so a resumed backfill writing an entry again is no error. */
    @Override
    public void write(StorageTable table, String indexName, List<BackfillEntry> entries) {
        String collection = ((Target) table).indexCollection();
        ReplaceOptions upsert = new ReplaceOptions().upsert(true);
        work.run(doing, () -> {
            for (BackfillEntry e : entries) {
                Document base = (Document) e.item();
                BsonDocument entry = MongoTables.entry(e.indexKey(), base.id(), base.document());
                work.data(collection).replaceOne(eq("_id", entry.get("_id")), entry, upsert);
            }
            return null;
        });
    }

    @Override
    public void activate(StorageTable table, String indexName) {
        work.run(doing, () -> catalog.indexes().updateOne(
                eq("_id", CatalogDocuments.indexDocumentId(table.description().tableId(), indexName)),
                Updates.combine(Updates.set("status", IndexStatus.ACTIVE.name()), Updates.set("backfilling", false))));
    }
}
