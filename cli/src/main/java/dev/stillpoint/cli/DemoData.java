package dev.stillpoint.cli;

import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.itemjson.ItemJson;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** The demo's data: its table's key, the items it loads, and a key's identity for the model. */
final class DemoData {

    /** The account the demo's tables belong to. */
    static final String ACCOUNT = StorageCommand.DEFAULT_ACCOUNT;
    /** The table the demo loads, exports and verifies. */
    static final String TABLE = "demo-orders";
    static final KeySchema SCHEMA = KeySchema.composite("pk", "sk");
    private static final int ITEMS_PER_PARTITION = 100;

    private DemoData() {
    }

    /**
     * The i-th item: 100 sort keys per partition; sort keys whose text order differs from their
     * numeric order (-62.5 ... 61.25), and a few partitions whose UTF-8 order differs from Java's
     * String order (U+FF61 sorts before an emoji in UTF-8, after it in UTF-16).
     */
    static Item item(int i, Random random) {
        int p = i / ITEMS_PER_PARTITION;
        int j = i % ITEMS_PER_PARTITION;
        String pk = switch (p % 50) {
            case 7 -> "\uD83D\uDE00 order-" + p;
            case 8 -> "\uFF61 order-" + p;
            case 9 -> "\u00E9 order-" + p;
            default -> String.format("customer#%05d", p);
        };
        String sk = BigDecimal.valueOf(j - ITEMS_PER_PARTITION / 2L).multiply(new BigDecimal("1.25")).toPlainString();
        Map<String, AttributeValue> a = new LinkedHashMap<>();
        a.put("pk", new AttributeValue.S(pk));
        a.put("sk", AttributeValue.N.of(sk));
        a.put("category", new AttributeValue.S("category-" + (i % 8)));
        a.put("rank", AttributeValue.N.of(Integer.toString(i % 997)));
        a.put("version", AttributeValue.N.of("0"));
        a.put("payload", new AttributeValue.S(text(random, 120)));
        a.put("tags", new AttributeValue.SS(new LinkedHashSet<>(List.of("t" + (i % 3), "t" + (3 + i % 5)))));
        a.put("shipping", new AttributeValue.M(Map.of("zip", new AttributeValue.S(String.format("%05d", i % 99999)),
                "express", i % 2 == 0 ? AttributeValue.Bool.TRUE : AttributeValue.Bool.FALSE)));
        return Item.of(a);
    }

    private static String text(Random random, int length) {
        char[] c = new char[length];
        for (int i = 0; i < length; i++) {
            c[i] = (char) ('a' + random.nextInt(26));
        }
        return new String(c);
    }

    /** A key's identity: the canonical DynamoDB JSON of its key attributes. */
    static String keyId(Item item, KeySchema schema) {
        Map<String, AttributeValue> key = new LinkedHashMap<>();
        key.put(schema.partitionKey(), item.get(schema.partitionKey()));
        schema.sortKey().ifPresent(s -> key.put(s, item.get(s)));
        return ItemJson.encode(Item.of(key));
    }
}
