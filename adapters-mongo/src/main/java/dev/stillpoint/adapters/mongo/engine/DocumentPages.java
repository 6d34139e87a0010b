package dev.stillpoint.adapters.mongo.engine;

import dev.stillpoint.adapters.mongo.storage.ItemDocuments;
import dev.stillpoint.adapters.mongo.storage.KeyIds;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.ports.in.StoredItem;
import dev.stillpoint.ports.in.StoredKey;
import dev.stillpoint.ports.out.PageBudget;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import org.bson.BsonDocument;
import org.bson.BsonString;
import org.bson.BsonValue;

/**
 * Filling one page from a collection's documents, within the budget [S7]: at most {@code rows}
 * items, and none after the one that reaches {@code bytes} of item text. A document that does not
 * decode is an Internal error naming its collection and {@code _id}, which ends the stream [M3].
 */
final class DocumentPages {

    private DocumentPages() {
    }

    /**
     * An item decoded from its document, with its DynamoDB JSON [S4] and, where asked, its document's
     * {@code _id}: the key it is stored under, kept apart from the item [E1].
     */
    record StoredDocument(String json, Item item, Optional<String> id) implements StoredItem {
        @Override
        public Optional<StoredKey> storedKey() {
            return id.map(IdKey::new);
        }
    }

    /** A document's {@code _id} as a stored key: a key is it when its id ({@link KeyIds#of}) is this one. */
    private record IdKey(String id) implements StoredKey {
        @Override
        public boolean matches(Key key) {
            try {
                return KeyIds.of(key).equals(id);
            } catch (StorageException e) {
                return false; // a key value no id can hold (not S, N or B)
            }
        }

        @Override
        public String describe() {
            return "_id=" + AttributeValue.shown(AttributeValue.s(id));
        }
    }

    /** Takes documents until the page is full or {@code documents} has no more; with their ids where {@code withIds}. */
    static List<StoredItem> fill(Iterator<BsonDocument> documents, PageBudget budget, String collection, boolean withIds) {
        List<StoredItem> items = new ArrayList<>(Math.min(budget.rows(), 1024));
        long bytes = 0;
        while (!budget.full(items.size(), bytes) && documents.hasNext()) {
            StoredDocument item = decode(documents.next(), collection, withIds);
            bytes += item.json().length();
            items.add(item);
        }
        return items;
    }

    static StoredDocument decode(BsonDocument document, String collection) {
        return decode(document, collection, false);
    }

    /** The document's item, with its {@code _id} as its stored key where {@code withId} (any other id shape never matches). */
    static StoredDocument decode(BsonDocument document, String collection, boolean withId) {
        BsonValue id = document.get("_id");
        BsonValue stored = document.get("item");
        String where = "of collection " + collection + " with _id " + id;
        if (stored == null) {
            throw StorageException.internal(
                    "cannot decode the item " + where + ": the document has no 'item' field", null);
        }
        Item item = ItemDocuments.decode(stored, where);
        Optional<String> storedId = !withId ? Optional.empty()
                : Optional.of(id instanceof BsonString text ? text.getValue() : String.valueOf(id));
        return new StoredDocument(ItemJson.encode(item), item, storedId);
    }
}
