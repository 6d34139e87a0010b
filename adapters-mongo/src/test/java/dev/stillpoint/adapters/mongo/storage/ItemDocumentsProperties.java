package dev.stillpoint.adapters.mongo.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.itemjson.ItemJson;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.bson.BsonArray;
import org.bson.BsonBinaryReader;
import org.bson.BsonDecimal128;
import org.bson.BsonDocument;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.codecs.DecoderContext;
import org.bson.types.Decimal128;

/**
 * Items as BSON: every attribute type reads back as written, numbers at Decimal128's 34 digits [M4],
 * 64 levels of nesting within MongoDB's 100, and what MongoDB cannot hold exactly refused by name.
 * Each round trip goes through BSON bytes, as the driver would send and receive them.
 */
class ItemDocumentsProperties {

    @Property
    void s4_everyAttributeTypeRoundTripsThroughBsonBytes(@ForAll("items") Item item) {
        assertThat(ItemDocuments.decode(throughBytes(ItemDocuments.encode(item)), "in a test")).isEqualTo(item);
    }

    @Example
    void s4_eachTypeHasItsDocumentedShape() {
        Map<String, AttributeValue> attributes = new LinkedHashMap<>();
        attributes.put("s", new AttributeValue.S("x"));
        attributes.put("n", AttributeValue.N.of("-1.50"));
        attributes.put("b", new AttributeValue.B(new byte[] {1, 2}));
        attributes.put("t", AttributeValue.Bool.TRUE);
        attributes.put("z", AttributeValue.Null.INSTANCE);
        attributes.put("ss", new AttributeValue.SS(new LinkedHashSet<>(List.of("a", "b"))));
        attributes.put("ns", new AttributeValue.NS(new LinkedHashSet<>(List.of("1", "2000"))));
        attributes.put("bs", new AttributeValue.BS(List.of(new byte[] {9})));
        attributes.put("l", new AttributeValue.L(List.of(new AttributeValue.S("y"))));
        attributes.put("m", new AttributeValue.M(Map.of("k", AttributeValue.Bool.FALSE)));
        attributes.put("$odd.name\u0000", new AttributeValue.S("names are values, not field names"));
        BsonArray encoded = ItemDocuments.encode(Item.of(attributes));

        assertThat(encoded.get(0).asDocument().toJson()).isEqualTo("{\"n\": \"s\", \"v\": {\"S\": \"x\"}}");
        assertThat(encoded.get(1).asDocument().getDocument("v").get("N"))
                .isEqualTo(new BsonDecimal128(Decimal128.parse("-1.5")));
        assertThat(encoded.get(2).asDocument().getDocument("v").get("B").isBinary()).isTrue();
        assertThat(encoded.get(3).asDocument().getDocument("v").getBoolean("BOOL").getValue()).isTrue();
        assertThat(encoded.get(4).asDocument().getDocument("v").containsKey("NULL")).isTrue();
        assertThat(encoded.get(5).asDocument().getDocument("v").getArray("SS")).hasSize(2);
        assertThat(encoded.get(6).asDocument().getDocument("v").getArray("NS").get(1))
                .isEqualTo(new BsonDecimal128(Decimal128.parse("2E+3")));
        assertThat(encoded.get(8).asDocument().getDocument("v").getArray("L").get(0).asDocument().getString("S").getValue())
                .isEqualTo("y");
        assertThat(encoded.get(9).asDocument().getDocument("v").getArray("M").get(0).asDocument().getString("n").getValue())
                .isEqualTo("k");
        assertThat(encoded.get(10).asDocument().getString("n").getValue()).isEqualTo("$odd.name\u0000");
        assertThat(ItemDocuments.decode(throughBytes(encoded), "in a test")).isEqualTo(Item.of(attributes));
    }

    // Mutant run by hand: the precision check removed -> the refusal example fails (Decimal128's own
    // constructor then throws NumberFormatException, not a validation error naming the attribute).
    @Example
    void m4_a38DigitNumberIsRefusedAtThePutNamingTheAttribute() {
        String digits38 = "12345678901234567890123456789012345678";
        String digits34 = "1234567890123456789012345678901234";
        Item ok = Item.of(Map.of("n", AttributeValue.N.of(digits34), "x", AttributeValue.N.of("-" + digits34 + "E-160")));
        assertThat(ItemDocuments.decode(throughBytes(ItemDocuments.encode(ok)), "in a test")).isEqualTo(ok);

        for (Item refused : List.of(Item.of(Map.of("big", AttributeValue.N.of(digits38))),
                Item.of(Map.of("big", new AttributeValue.NS(new LinkedHashSet<>(List.of("1", "0." + digits38))))),
                Item.of(Map.of("big", new AttributeValue.L(List.of(AttributeValue.N.of("1" + digits34))))))) {
            assertThatThrownBy(() -> ItemDocuments.encode(refused))
                    .isInstanceOfSatisfying(StorageException.class, e -> {
                        assertThat(e.reason()).isEqualTo(ErrorReason.VALIDATION);
                        assertThat(e.getMessage()).contains("attribute 'big").contains("significant digits")
                                .contains("Decimal128").contains("34");
                    });
        }
    }

    // BSON allows 100 levels; an L level costs two and an M level three, and an item may nest 64 [D3a].
    // Mutant run by hand: TYPED_NESTING raised to 64 -> "within MongoDB's 100 levels" fails (196 levels).
    @Example
    void d3a_sixtyFourLevelsFitMongoDbsNestingLimit() {
        for (boolean maps : List.of(false, true)) {
            AttributeValue deepest = new AttributeValue.S("bottom");
            for (int level = 0; level < ItemJson.MAX_NESTING; level++) {
                deepest = maps ? new AttributeValue.M(Map.of("k", deepest)) : new AttributeValue.L(List.of(deepest));
            }
            Item item = Item.of(Map.of("deep", deepest));
            BsonDocument document = new BsonDocument("_id", new BsonString("1:Sx,")).append("item", ItemDocuments.encode(item));
            assertThat(depth(document)).as("within MongoDB's 100 levels (%s)", maps ? "maps" : "lists").isLessThanOrEqualTo(100);
            assertThat(ItemDocuments.decode(throughBytes(document.getArray("item")), "in a test")).isEqualTo(item);
        }
    }

    @Example
    void s4_textMongoDbCannotHoldIsRefusedByName() {
        for (Item refused : List.of(Item.of(Map.of("a", new AttributeValue.S("x\ud800y"))),
                Item.of(Map.of("\udc00", new AttributeValue.S("x"))),
                Item.of(Map.of("m", new AttributeValue.M(Map.of("k\ud800", AttributeValue.Null.INSTANCE)))))) {
            assertThatThrownBy(() -> ItemDocuments.encode(refused))
                    .isInstanceOfSatisfying(StorageException.class, e -> {
                        assertThat(e.reason()).isEqualTo(ErrorReason.VALIDATION);
                        assertThat(e.getMessage()).contains("unpaired surrogate").contains("MongoDB");
                    });
        }
    }

    // [S4] a number MongoDB holds that is not a DynamoDB number (an operator's NaN) is yielded raw.
    @Example
    void s4_aStoredNaNIsYieldedRaw() {
        BsonArray stored = new BsonArray(List.of(new BsonDocument("n", new BsonString("x"))
                .append("v", new BsonDocument("N", new BsonDecimal128(Decimal128.NaN)))));
        assertThat(ItemDocuments.decode(stored, "in a test").get("x")).isEqualTo(new AttributeValue.N("NaN"));
    }

    // [M3] a document that is not an item is an Internal error naming where it was found.
    @Example
    void m3_anUndecodableDocumentIsAnInternalErrorNamingIt() {
        List<BsonValue> damaged = List.of(new BsonString("not an array"),
                new BsonArray(List.of(new BsonString("not a pair"))),
                new BsonArray(List.of(new BsonDocument("n", new BsonString("a")).append("v", new BsonDocument("X", new BsonString("?"))))),
                new BsonArray(List.of(new BsonDocument("n", new BsonString("a")).append("v", new BsonDocument("S", new BsonDecimal128(Decimal128.parse("1")))))),
                new BsonArray(List.of(new BsonDocument("n", new BsonString("a")).append("v", new BsonDocument("S", new BsonString("1"))),
                        new BsonDocument("n", new BsonString("a")).append("v", new BsonDocument("S", new BsonString("2"))))));
        for (BsonValue d : damaged) {
            assertThatThrownBy(() -> ItemDocuments.decode(d, "of collection d_x with _id '1:Sa,'"))
                    .isInstanceOfSatisfying(StorageException.class, e -> {
                        assertThat(e.reason()).isEqualTo(ErrorReason.INTERNAL);
                        assertThat(e.getMessage()).contains("cannot decode the item of collection d_x with _id '1:Sa,'");
                    });
        }
    }

    @Provide
    Arbitrary<Item> items() {
        return MongoArbitraries.items();
    }

    /** The value written to BSON bytes and read back, as the driver would. */
    private static BsonValue throughBytes(BsonArray item) {
        RawBsonDocument raw = new RawBsonDocument(new BsonDocument("item", item), new BsonDocumentCodec());
        ByteBuffer bytes = raw.getByteBuffer().asNIO();
        BsonDocument back = new BsonDocumentCodec().decode(new BsonBinaryReader(bytes), DecoderContext.builder().build());
        return back.get("item");
    }

    private static int depth(BsonValue v) {
        if (v.isDocument()) {
            return 1 + v.asDocument().values().stream().mapToInt(ItemDocumentsProperties::depth).max().orElse(0);
        }
        if (v.isArray()) {
            return 1 + v.asArray().stream().mapToInt(ItemDocumentsProperties::depth).max().orElse(0);
        }
        return 0;
    }
}
