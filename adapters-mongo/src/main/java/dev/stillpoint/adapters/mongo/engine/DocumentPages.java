package dev.stillpoint.adapters.mongo.engine;

import dev.stillpoint.adapters.mongo.storage.ItemDocuments;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.ports.in.StoredItem;
import dev.stillpoint.ports.out.PageBudget;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.bson.BsonDocument;
import org.bson.BsonValue;

/**
 * Filling one page from a collection's documents, within the budget [S7]: at most {@code rows}
 * items, and none after the one that reaches {@code bytes} of item text. A document that does not
 * decode is an Internal error naming its collection and {@code _id}, which ends the stream [M3].
 */
final class DocumentPages {

    private DocumentPages() {
    }

    /** An item decoded from its document, with its DynamoDB JSON [S4]. */
    record StoredDocument(String json, Item item) implements StoredItem {
    }

    /** Takes documents until the page is full or {@code documents} has no more. */
    static List<StoredItem> fill(Iterator<BsonDocument> documents, PageBudget budget, String collection) {
        List<StoredItem> items = new ArrayList<>(Math.min(budget.rows(), 1024));
        long bytes = 0;
        while (!budget.full(items.size(), bytes) && documents.hasNext()) {
            StoredDocument item = decode(documents.next(), collection);
            bytes += item.json().length();
            items.add(item);
        }
        return items;
    }

    static StoredDocument decode(BsonDocument document, String collection) {
        BsonValue id = document.get("_id");
        BsonValue stored = document.get("item");
        String where = "of collection " + collection + " with _id " + id;
        if (stored == null) {
            throw dev.stillpoint.domain.error.StorageException.internal(
                    "cannot decode the item " + where + ": the document has no 'item' field", null);
        }
        Item item = ItemDocuments.decode(stored, where);
        return new StoredDocument(ItemJson.encode(item), item);
    }
}
