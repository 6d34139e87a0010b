package dev.stillpoint.adapters.mongo.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.adapters.mongo.storage.ItemDocuments;
import dev.stillpoint.adapters.mongo.storage.KeyIds;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.ports.in.StoredItem;
import dev.stillpoint.ports.out.PageBudget;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.bson.BsonDocument;
import org.bson.BsonString;
import org.junit.jupiter.api.Test;

/**
 * A page from a cursor's documents [S7, M3]: bounded by rows and by bytes (the page holds at most the
 * byte budget plus one item), items as DynamoDB JSON [S4], and an undecodable document an error that
 * names it. The documents here are the ones the adapter writes; no cursor or server is involved.
 */
class DocumentPagesTest {

    @Test
    void s7_aPageStopsAtItsRows() {
        Iterator<BsonDocument> docs = documents(5, 10).iterator();
        List<StoredItem> page = DocumentPages.fill(docs, new PageBudget(3, 1 << 20), "d_x", false);
        assertThat(page).hasSize(3);
        assertThat(docs.hasNext()).as("the rest stays in the cursor").isTrue();
        assertThat(DocumentPages.fill(docs, new PageBudget(3, 1 << 20), "d_x", false)).hasSize(2);
    }

    // Mutant run by hand: the byte check dropped from the loop condition -> "at most the budget plus one" fails (5 items).
    @Test
    void s7_aPageStopsAfterTheItemThatReachesItsBytes() {
        List<BsonDocument> all = documents(5, 100);
        long one = DocumentPages.decode(all.get(0), "d_x").json().length();
        List<StoredItem> page = DocumentPages.fill(all.iterator(), new PageBudget(100, one + 1), "d_x", false);
        assertThat(page).as("at most the budget plus one item").hasSize(2);
    }

    @Test
    void s4_itemsCarryTheirJsonAndDecodedForm() {
        List<StoredItem> page = DocumentPages.fill(documents(2, 3).iterator(), PageBudget.DEFAULT, "d_x", false);
        for (StoredItem stored : page) {
            assertThat(ItemJson.decode(stored.json())).isEqualTo(stored.item());
        }
        assertThat(page.get(1).item().get("pk")).isEqualTo(new AttributeValue.S("k1"));
    }

    @Test
    void m3_anUndecodableDocumentEndsThePageWithAnErrorNamingIt() {
        List<BsonDocument> docs = new ArrayList<>(documents(2, 3));
        docs.add(new BsonDocument("_id", new BsonString("3:Sk9,")).append("item", new BsonString("garbage")));
        docs.add(new BsonDocument("_id", new BsonString("4:Sk10,")));
        assertThatThrownBy(() -> DocumentPages.fill(docs.iterator(), PageBudget.DEFAULT, "d_x", false))
                .isInstanceOfSatisfying(StorageException.class, e -> {
                    assertThat(e.reason()).isEqualTo(ErrorReason.INTERNAL);
                    assertThat(e.getMessage()).contains("collection d_x").contains("3:Sk9,");
                });
        assertThatThrownBy(() -> DocumentPages.fill(docs.subList(3, 4).iterator(), PageBudget.DEFAULT, "d_x", false))
                .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.getMessage())
                        .contains("4:Sk10,").contains("no 'item' field"));
    }

    /** Documents as the adapter writes them: pk "k<i>" and a payload of {@code size} characters. */
    // [E1] With ids asked, each item carries its document's _id as its stored key: its own key matches, a key
    // its item was hand-edited to name does not (the export then refuses it), and without ids there is none.
    // Mutant run by hand: IdKey.matches answering true -> "a document whose item names another key" fails.
    @Test
    void e1_anItemCarriesItsDocumentsIdAsItsStoredKeyWhenAsked() {
        List<StoredItem> page = DocumentPages.fill(documents(3, 3).iterator(), PageBudget.DEFAULT, "d_x", true);
        for (StoredItem stored : page) {
            Key own = Key.of(stored.item().get("pk"));
            assertThat(stored.storedKey()).hasValueSatisfying(k -> assertThat(k.matches(own)).isTrue());
            assertThat(stored.storedKey().orElseThrow().matches(Key.of(new AttributeValue.S("other")))).isFalse();
            assertThat(stored.storedKey().orElseThrow().matches(Key.of(new AttributeValue.N("1")))).isFalse();
        }
        Item edited = Item.of(Map.of("pk", new AttributeValue.S("k9"), "p", new AttributeValue.S("x")));
        BsonDocument moved = new BsonDocument("_id", new BsonString(KeyIds.of(Key.of(new AttributeValue.S("k1")))))
                .append("item", ItemDocuments.encode(edited));
        StoredItem stored = DocumentPages.decode(moved, "d_x", true);
        assertThat(stored.storedKey().orElseThrow().matches(Key.of(edited.get("pk"))))
                .as("a document whose item names another key").isFalse();
        assertThat(stored.storedKey().orElseThrow().describe()).isEqualTo("_id=S '3:Sk1,'");
        assertThat(DocumentPages.fill(documents(2, 3).iterator(), PageBudget.DEFAULT, "d_x", false))
                .as("no stored key unless asked").allSatisfy(i -> assertThat(i.storedKey()).isEmpty());
    }

    static List<BsonDocument> documents(int count, int size) {
        List<BsonDocument> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Item item = Item.of(Map.of("pk", new AttributeValue.S("k" + i), "p", new AttributeValue.S("x".repeat(size))));
            out.add(new BsonDocument("_id", new BsonString(KeyIds.of(Key.of(item.get("pk")))))
                    .append("item", ItemDocuments.encode(item)));
        }
        return out;
    }
}
