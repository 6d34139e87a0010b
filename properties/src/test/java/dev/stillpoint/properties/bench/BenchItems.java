package dev.stillpoint.properties.bench;

import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The items every snapshot benchmark loads, so figures of different backends compare: item
 * {@code i} is the same ~400 bytes of DynamoDB JSON everywhere, a function of {@code i} alone.
 * JDK and domain only: the benchmark scripts compile it from source beside their bench class.
 */
public final class BenchItems {

    /** Items per partition key. */
    public static final int PER_PARTITION = 1000;

    /** The sort keys start here (epoch milliseconds of late 2023), so N keys have 13 digits. */
    public static final long SK_BASE = 1_700_000_000_000L;

    private BenchItems() {
    }

    /** Item {@code i}: partition {@code i / 1000}, sort key in that partition, ~400 bytes of DynamoDB JSON. */
    public static Item item(int i) {
        SplittableRandom r = new SplittableRandom(0x5EED_0000L + i);
        int p = i / PER_PARTITION;
        int j = i % PER_PARTITION;
        Map<String, AttributeValue> a = new LinkedHashMap<>();
        a.put("pk", AttributeValue.s(String.format(Locale.ROOT, "customer#%07d", p)));
        a.put("sk", AttributeValue.n(Long.toString(SK_BASE + j * 1000L + r.nextInt(1000))));
        a.put("name", AttributeValue.s(FIRST[r.nextInt(FIRST.length)] + " " + LAST[r.nextInt(LAST.length)]));
        a.put("email", AttributeValue.s("user" + i + "@example.com"));
        a.put("age", AttributeValue.n(Integer.toString(18 + r.nextInt(70))));
        a.put("balance", AttributeValue.n(r.nextInt(100_000) + "." + (10 + r.nextInt(89))));
        a.put("active", r.nextBoolean() ? AttributeValue.Bool.TRUE : AttributeValue.Bool.FALSE);
        LinkedHashSet<String> tags = new LinkedHashSet<>();
        while (tags.size() < 3) {
            tags.add(TAGS[r.nextInt(TAGS.length)]);
        }
        a.put("tags", new AttributeValue.SS(tags));
        Map<String, AttributeValue> address = new LinkedHashMap<>();
        address.put("street", AttributeValue.s((1 + r.nextInt(999)) + " " + LAST[r.nextInt(LAST.length)] + " Street"));
        address.put("city", AttributeValue.s(CITIES[r.nextInt(CITIES.length)]));
        address.put("zip", AttributeValue.s(String.format(Locale.ROOT, "%05d", r.nextInt(100_000))));
        a.put("address", new AttributeValue.M(address));
        a.put("notes", AttributeValue.s(padding(r, 50 + r.nextInt(30))));
        return Item.of(a);
    }

    private static final String[] FIRST = {"Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Frances", "Ken"};
    private static final String[] LAST = {"Lovelace", "Hopper", "Turing", "Dijkstra", "Liskov", "Knuth", "Allen"};
    private static final String[] TAGS = {"gold", "silver", "bronze", "new", "returning", "vip", "eu", "us", "apac"};
    private static final String[] CITIES = {"Lisbon", "Oslo", "Quito", "Nairobi", "Osaka", "Perth", "Montreal"};
    private static final String WORDS = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor ";

    private static String padding(SplittableRandom r, int length) {
        StringBuilder b = new StringBuilder(length);
        while (b.length() < length) {
            int from = r.nextInt(WORDS.length() - 12);
            b.append(WORDS, from, from + 12);
        }
        b.setLength(length);
        return b.toString();
    }

    /** {@code n} indexes spread evenly over {@code 0 .. items - 1}, first and last included, without repeats. */
    public static int[] sample(int items, int n) {
        int k = Math.min(n, items);
        int[] s = new int[k];
        for (int i = 0; i < k; i++) {
            s[i] = (int) ((long) i * (items - 1) / Math.max(1, k - 1));
        }
        return Arrays.stream(s).distinct().toArray();
    }
}
