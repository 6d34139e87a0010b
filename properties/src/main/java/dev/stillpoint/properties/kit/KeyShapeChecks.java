package dev.stillpoint.properties.kit;

import static dev.stillpoint.properties.kit.KitSupport.ACCOUNT;
import static dev.stillpoint.properties.kit.KitSupport.ACTIVE_DEADLINE;
import static dev.stillpoint.properties.kit.KitSupport.LARGE_BYTES;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.item.KeyOrder;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.in.StoredItem;
import dev.stillpoint.ports.in.TableOperations;
import dev.stillpoint.ports.in.TableSnapshot;
import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.ports.out.ReadObserver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.assertj.core.api.SoftAssertions;

/**
 * K5: six key shapes at a page of 3, with keys chosen so that every wrong order a backend might use
 * instead of {@link KeyOrder#compare} (UTF-16, a case-insensitive or accent-folding collation,
 * base64 text, signed bytes, number text, doubles) disagrees with it somewhere, across page edges.
 */
final class KeyShapeChecks {

    /** The key shapes of K5. */
    enum Shape {
        HASH_S, HASH_N, HASH_B, HASH_S_RANGE_S, HASH_S_RANGE_N, HASH_S_RANGE_B;

        ScalarType hashType() {
            return switch (this) {
                case HASH_N -> ScalarType.N;
                case HASH_B -> ScalarType.B;
                case HASH_S, HASH_S_RANGE_S, HASH_S_RANGE_N, HASH_S_RANGE_B -> ScalarType.S;
            };
        }

        Optional<ScalarType> rangeType() {
            return switch (this) {
                case HASH_S, HASH_N, HASH_B -> Optional.empty();
                case HASH_S_RANGE_S -> Optional.of(ScalarType.S);
                case HASH_S_RANGE_N -> Optional.of(ScalarType.N);
                case HASH_S_RANGE_B -> Optional.of(ScalarType.B);
            };
        }
    }

    static final int PAGE_ROWS = 3;

    /**
     * S values: "B" before "a" by bytes but not case-insensitively; U+FFFD before U+1F600 by UTF-8
     * but after it by String.compareTo (a surrogate pair); "Ж" (0xD0..) and U+1F600 (0xF0..) after
     * "z" by bytes but before it as base64 text ('0', '8' &lt; 'e'); "e"+U+0301 and U+00E9, which a
     * normalising collation would treat as one; and a prefix pair.
     */
    static final List<String> STRINGS = List.of("a", "B", "A", "b", "ab", "z", "~", "\u00E9", "e\u0301",
            "\u0416", "\uFF21", "\uFFFD", "\uD83D\uDE00", "\uD83D\uDE00x");

    /** B values: signed and unsigned orders differ at 0x80; prefixes; '+' and '/' in base64 sort before letters. */
    static final List<byte[]> BINARIES = List.of(new byte[] {0x00}, new byte[] {0x00, 0x00}, new byte[] {0x00, 0x01},
            new byte[] {0x01}, new byte[] {0x3E}, new byte[] {0x7F}, new byte[] {(byte) 0x80},
            new byte[] {(byte) 0x80, 0x00}, new byte[] {(byte) 0xF8}, new byte[] {(byte) 0xFC},
            new byte[] {(byte) 0xFE}, new byte[] {(byte) 0xFF}, new byte[] {(byte) 0xFF, 0x00},
            new byte[] {(byte) 0xFF, (byte) 0xFF});

    static final String DIGITS_38_LOW = "12345678901234567890123456789012345678";
    static final String DIGITS_38_HIGH = "12345678901234567890123456789012345679";
    static final String DIGITS_34_LOW = "1234567890123456789012345678901234";
    static final String DIGITS_34_HIGH = "1234567890123456789012345678901235";

    /**
     * N values whose text order and numeric order differ: negatives, fractions, the extremes of
     * magnitude (1E-130, 9.9E125), and 38- and 34-digit pairs a last digit apart (which a double
     * or a 34-digit decimal cannot tell apart).
     */
    static final List<String> NUMBERS = List.of("-9.9E125", "-10", "-9.5", "-1", "-0.5", "-1E-130", "0", "1E-130",
            "0.5", "1", "2", "10", "9.9E125", DIGITS_34_LOW, DIGITS_34_HIGH, DIGITS_38_LOW, DIGITS_38_HIGH,
            "-" + DIGITS_34_HIGH, "-" + DIGITS_34_LOW);

    /** Hash values for the composite shapes: byte order differs from UTF-16 and case-insensitive order. */
    static final List<String> HASHES = List.of("a", "B", "\uFFFD", "\uD83D\uDE00");

    private KeyShapeChecks() {
    }

    static void k5(ConformanceFixture fixture, Shape shape) {
        Expectations expect = fixture.expectations();
        try (KitEngine engine = fixture.start(new KitSettings(new PageBudget(PAGE_ROWS, LARGE_BYTES),
                ReadObserver.NONE, Duration.ZERO))) {
            TableOperations tables = engine.tables();
            String table = KitSupport.uniqueName("k5_" + shape.name().toLowerCase(java.util.Locale.ROOT));
            List<AttributeDefinition> definitions = new ArrayList<>();
            definitions.add(new AttributeDefinition("pk", shape.hashType()));
            shape.rangeType().ifPresent(t -> definitions.add(new AttributeDefinition("sk", t)));
            KeySchema schema = shape.rangeType().isPresent() ? KeySchema.composite("pk", "sk") : KeySchema.hashOnly("pk");
            tables.createTable(new CreateTableRequest(ACCOUNT, table, schema, definitions, List.of(), List.of(),
                    Optional.empty()));
            KitSupport.awaitStatus(tables, table, TableStatus.ACTIVE, ACTIVE_DEADLINE);

            SoftAssertions soft = new SoftAssertions();
            Map<Key, Item> stored = new LinkedHashMap<>();
            int n = 0;
            for (Item item : items(shape)) {
                n++;
                Item withPayload = item.with("v", AttributeValue.n(Integer.toString(n)));
                Optional<String> wide = wideNumber(item);
                if (wide.isPresent() && expect.numberDigits() < 38) {
                    soft.assertThatThrownBy(() -> tables.putItem(ACCOUNT, table, withPayload))
                            .as("[K5] %s: a %d-digit backend refuses the 38-digit N %s at the put with a Validation "
                                    + "error naming the value", shape, expect.numberDigits(), wide.get())
                            .isInstanceOfSatisfying(StorageException.class, e -> {
                                if (e.reason() != ErrorReason.VALIDATION || !e.getMessage().contains(wide.get())) {
                                    throw new AssertionError("expected VALIDATION naming " + wide.get() + ", got " + e);
                                }
                            });
                    continue;
                }
                tables.putItem(ACCOUNT, table, withPayload);
                stored.put(Key.of(withPayload, schema), withPayload);
            }

            try (TableSnapshot snapshot = engine.snapshots().openTableSnapshot(ACCOUNT, table)) {
                List<StoredItem> items = Drain.all(snapshot.items(), "K5 " + shape + " drain");
                List<Key> duplicates = new ArrayList<>();
                Map<Key, Item> seen = KitSupport.byKey(items, schema, duplicates);
                soft.assertThat(duplicates).as("[K5] %s: no key twice", shape).isEmpty();
                soft.assertThat(seen.keySet())
                        .as("[K5] %s: every stored item, none missing, none extra", shape)
                        .containsExactlyInAnyOrderElementsOf(stored.keySet());
                soft.assertThat(seen.entrySet().stream()
                                .filter(e -> stored.containsKey(e.getKey()) && !stored.get(e.getKey()).equals(e.getValue()))
                                .map(e -> e.getKey() + " came back as " + e.getValue()).toList())
                        .as("[K5] %s: items yielded as stored, numbers normalised (S4)", shape).isEmpty();
                soft.assertThat(snapshot.keyOrdered())
                        .as("[K5] %s: keyOrdered as the backend declares it (Expectations.keyOrdered)", shape)
                        .isEqualTo(expect.keyOrdered());
                if (snapshot.keyOrdered()) {
                    KeyOrder order = KitSupport.orderOf(snapshot.description())
                            .orElseThrow(() -> new AssertionError("[K5] " + shape + ": keyOrdered but the key is unorderable"));
                    soft.assertThat(KitSupport.firstOutOfOrder(KitSupport.keys(items, schema), order))
                            .as("[K5] %s: keys strictly ascending by KeyOrder.compare when keyOrdered", shape)
                            .isEmpty();
                }
            }
            soft.assertAll();
            KitSupport.bestEffortDelete(tables, table);
        }
    }

    private static Optional<String> wideNumber(Item item) {
        for (String name : List.of("pk", "sk")) {
            if (item.get(name) instanceof AttributeValue.N number && number.text().replace("-", "").length() == 38) {
                return Optional.of(number.text());
            }
        }
        return Optional.empty();
    }

    private static List<AttributeValue> values(ScalarType type) {
        return switch (type) {
            case S -> STRINGS.stream().<AttributeValue>map(AttributeValue::s).toList();
            case N -> NUMBERS.stream().<AttributeValue>map(AttributeValue::n).toList();
            case B -> BINARIES.stream().<AttributeValue>map(AttributeValue::b).toList();
        };
    }

    /** The items of a shape, in an order unrelated to the key order (reversed), so nothing arrives sorted by accident. */
    static List<Item> items(Shape shape) {
        List<Item> out = new ArrayList<>();
        if (shape.rangeType().isEmpty()) {
            for (AttributeValue v : values(shape.hashType())) {
                out.add(Item.of(Map.of("pk", v)));
            }
        } else {
            for (String h : HASHES) {
                for (AttributeValue v : values(shape.rangeType().get())) {
                    out.add(Item.of(Map.of("pk", AttributeValue.s(h), "sk", v)));
                }
            }
        }
        java.util.Collections.reverse(out);
        return out;
    }
}
