package dev.stillpoint.cli;

import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.request.ItemRules;
import dev.stillpoint.domain.request.ItemWrite;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.LocalSecondaryIndex;
import dev.stillpoint.domain.table.Projection;
import dev.stillpoint.domain.table.StreamSpecification;
import dev.stillpoint.domain.table.TimeToLive;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * Generated tables for the export and restore properties: every key shape (S, N, B partition key, with
 * or without an S, N or B sort key), up to two GSIs (one sharing the table's partition key as its range)
 * and, on a table with a sort key, up to two LSIs, a stream specification or none, a time-to-live
 * setting (on, off) or none; items with distinct
 * keys holding every attribute type (S, N, B, BOOL, NULL, SS, NS, BS, L, M nested), index keys present
 * most of the time, strings with astral, CJK, quotes, backslashes and line breaks.
 */
final class GeneratedTables {

    private static final String ACCOUNT = StorageCommand.DEFAULT_ACCOUNT;

    private GeneratedTables() {
    }

    /** A generated table: its definition and its items (distinct keys). */
    record Generated(CreateTableRequest definition, List<Item> items) {
        @Override
        public String toString() {
            return definition.keySchema() + " gsis " + definition.gsis().stream().map(GlobalSecondaryIndex::keySchema).toList()
                    + " lsis " + definition.lsis().stream().map(LocalSecondaryIndex::keySchema).toList() + ", "
                    + items.size() + " items";
        }

        /**
         * What the table holds once every item is put, in put order, later puts of a key replacing earlier
         * ones: each item as the core stores it (numbers canonical), by {@link ItemRules#forPut}.
         */
        List<Item> stored(TableDescription table) {
            Map<Key, Item> byKey = new LinkedHashMap<>();
            for (Item item : items) {
                ItemWrite write = ItemRules.forPut(table, item);
                byKey.remove(write.key());
                byKey.put(write.key(), write.item());
            }
            return List.copyOf(byKey.values());
        }

        /** The definition under another name. */
        CreateTableRequest named(String name) {
            CreateTableRequest d = definition;
            return new CreateTableRequest(d.accountId(), name, d.keySchema(), d.attributeDefinitions(), d.gsis(), d.lsis(),
                    d.stream(), d.timeToLive());
        }
    }

    static Arbitrary<Generated> tables() {
        Arbitrary<ScalarType> types = Arbitraries.of(ScalarType.values());
        Arbitrary<Optional<TimeToLive>> ttls = Arbitraries.of(Optional.empty(),
                Optional.of(new TimeToLive("expiresAt", true)), Optional.of(new TimeToLive("ttl", false)));
        return Combinators.combine(types, types.optional(0.6), types.list().ofMaxSize(2), types.list().ofMaxSize(2),
                        Arbitraries.of(true, false), ttls, Arbitraries.integers().between(0, 25))
                .flatAs((pk, sk, gsiTypes, lsiTypes, stream, ttl, count) -> {
                    Map<String, ScalarType> defined = new LinkedHashMap<>();
                    defined.put("pk", pk);
                    sk.ifPresent(s -> defined.put("sk", s));
                    List<GlobalSecondaryIndex> gsis = new ArrayList<>();
                    for (int i = 0; i < gsiTypes.size(); i++) {
                        defined.put("g" + i, gsiTypes.get(i));
                        // The second GSI takes the table's partition key as its range: key attributes shared across indexes.
                        KeySchema key = i == 1 ? KeySchema.composite("g1", "pk") : KeySchema.hashOnly("g" + i);
                        gsis.add(GlobalSecondaryIndex.creating("gsi" + i, key,
                                i == 0 ? Projection.all() : Projection.keysOnly()));
                    }
                    List<LocalSecondaryIndex> lsis = new ArrayList<>();
                    if (sk.isPresent()) {
                        for (int i = 0; i < lsiTypes.size(); i++) {
                            defined.put("l" + i, lsiTypes.get(i));
                            lsis.add(LocalSecondaryIndex.of("lsi" + i, KeySchema.composite("pk", "l" + i),
                                    i == 0 ? Projection.include(List.of("s")) : Projection.all()));
                        }
                    }
                    List<AttributeDefinition> definitions = defined.entrySet().stream()
                            .map(e -> new AttributeDefinition(e.getKey(), e.getValue())).toList();
                    CreateTableRequest request = new CreateTableRequest(ACCOUNT, "generated",
                            sk.map(s -> KeySchema.composite("pk", "sk")).orElse(KeySchema.hashOnly("pk")), definitions,
                            gsis, lsis, stream ? Optional.of(StreamSpecification.enabled("NEW_AND_OLD_IMAGES"))
                                    : Optional.empty(), ttl);
                    return item(defined).list().ofSize(count).map(items -> new Generated(request, distinctKeys(request, items)));
                });
    }

    private static List<Item> distinctKeys(CreateTableRequest request, List<Item> items) {
        Map<List<AttributeValue>, Item> byKey = new LinkedHashMap<>();
        for (Item item : items) {
            List<AttributeValue> key = new ArrayList<>();
            key.add(item.attributes().get("pk"));
            request.keySchema().sortKey().ifPresent(s -> key.add(item.attributes().get(s)));
            byKey.putIfAbsent(key, item);
        }
        return List.copyOf(byKey.values());
    }

    private static Arbitrary<Item> item(Map<String, ScalarType> keyAttributes) {
        List<Arbitrary<Optional<Map.Entry<String, AttributeValue>>>> parts = new ArrayList<>();
        keyAttributes.forEach((name, type) -> {
            Arbitrary<Map.Entry<String, AttributeValue>> value = scalar(type).map(v -> Map.entry(name, v));
            boolean required = name.equals("pk") || name.equals("sk");
            parts.add(required ? value.map(Optional::of) : value.optional(0.7));
        });
        Arbitrary<Map<String, AttributeValue>> others = Arbitraries.maps(Arbitraries.of("s", "n", "b", "bool", "nul",
                "ss", "ns", "bs", "l", "m", "\u00e9t\u00e9", "\uD83D\uDE00"), value(2)).ofMaxSize(6);
        return Combinators.combine(Combinators.combine(parts).as(l -> l), others).as((keys, rest) -> {
            Map<String, AttributeValue> attributes = new LinkedHashMap<>(rest);
            keys.forEach(e -> e.ifPresent(en -> attributes.put(en.getKey(), en.getValue())));
            return Item.of(attributes);
        });
    }

    private static Arbitrary<String> strings(int min) {
        return Arbitraries.of("a", "b", "Z", "0", " ", "\u00e9", "\u4e2d", "\uD83D\uDE00", "\"", "\\", "\uFF61", "\n")
                .list().ofMinSize(min).ofMaxSize(6).map(l -> String.join("", l));
    }

    private static Arbitrary<String> numbers() {
        return Arbitraries.oneOf(Arbitraries.bigIntegers().between(BigInteger.valueOf(-1_000_000), BigInteger.valueOf(1_000_000))
                        .map(BigInteger::toString),
                Arbitraries.bigDecimals().between(new java.math.BigDecimal("-1E6"), new java.math.BigDecimal("1E6"))
                        .ofScale(3).map(java.math.BigDecimal::toPlainString),
                Arbitraries.of("1E100", "-1.5E-100", "0.001", "99999999999999999999999999999999999999"));
    }

    private static Arbitrary<AttributeValue> scalar(ScalarType type) {
        return switch (type) {
            case S -> strings(1).map(AttributeValue.S::new);
            case N -> numbers().map(AttributeValue.N::new);
            case B -> Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(6).map(AttributeValue::b);
        };
    }

    private static Arbitrary<AttributeValue> value(int depth) {
        List<Tuple.Tuple2<Integer, Arbitrary<AttributeValue>>> choices = new ArrayList<>();
        choices.add(Tuple.of(3, strings(0).map(AttributeValue.S::new)));
        choices.add(Tuple.of(3, numbers().map(AttributeValue.N::new)));
        choices.add(Tuple.of(2, Arbitraries.bytes().array(byte[].class).ofMaxSize(5).map(AttributeValue::b)));
        choices.add(Tuple.of(1, Arbitraries.of(true, false).map(AttributeValue.Bool::new)));
        choices.add(Tuple.of(1, Arbitraries.just(AttributeValue.Null.INSTANCE)));
        choices.add(Tuple.of(1, strings(1).set().ofMinSize(1).ofMaxSize(3).map(AttributeValue.SS::new)));
        choices.add(Tuple.of(1, Arbitraries.integers().between(-50, 50).set().ofMinSize(1).ofMaxSize(3)
                .map(n -> new AttributeValue.NS(toTexts(n)))));
        choices.add(Tuple.of(1, Arbitraries.integers().between(0, 255).set().ofMinSize(1).ofMaxSize(3)
                .map(b -> new AttributeValue.BS(toBytes(b)))));
        if (depth > 0) {
            choices.add(Tuple.of(1, value(depth - 1).list().ofMaxSize(3).map(AttributeValue.L::new)));
            choices.add(Tuple.of(1, Arbitraries.maps(strings(1), value(depth - 1)).ofMaxSize(3).map(AttributeValue.M::new)));
        }
        return Arbitraries.frequencyOf(choices);
    }

    private static Set<String> toTexts(Set<Integer> numbers) {
        Set<String> out = new LinkedHashSet<>();
        numbers.forEach(n -> out.add(n.toString()));
        return out;
    }

    private static List<byte[]> toBytes(Set<Integer> bytes) {
        List<byte[]> out = new ArrayList<>();
        bytes.forEach(b -> out.add(new byte[] {(byte) (int) b}));
        return out;
    }

}
