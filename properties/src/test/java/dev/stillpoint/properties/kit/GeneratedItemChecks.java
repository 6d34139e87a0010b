package dev.stillpoint.properties.kit;

import static dev.stillpoint.properties.kit.KitSupport.ACCOUNT;
import static dev.stillpoint.properties.kit.KitSupport.ACTIVE_DEADLINE;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.request.ItemRules;
import dev.stillpoint.domain.request.ItemWrite;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.Projection;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.in.TableOperations;
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

/**
 * R5 on generated items: each is put through the adapter and judged against the core's own rules
 * applied to the same definition. Accepted or refused must match, with the same reason; what was
 * accepted must read back equal (Java strings compare by UTF-16 code units, so equal strings hold the
 * same code points, NUL and astral characters included). Every adapter that agrees with the rules
 * agrees with every other one on these items [R5].
 */
final class GeneratedItemChecks {

    /** Items per run: each is one put and one get on the live database. */
    static final int ITEMS = 150;

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(GeneratedItemChecks.class);

    private GeneratedItemChecks() {
    }

    static void r5(ConformanceFixture fixture) {
        try (KitEngine engine = RequestRuleChecks.start(fixture)) {
            TableOperations tables = engine.tables();
            String table = KitSupport.uniqueName("r5");
            tables.createTable(new CreateTableRequest(ACCOUNT, table, KeySchema.hashOnly("pk"),
                    List.of(new AttributeDefinition("pk", ScalarType.S), new AttributeDefinition("g", ScalarType.N)),
                    List.of(GlobalSecondaryIndex.creating("by_g", KeySchema.hashOnly("g"), Projection.all())),
                    List.of(), Optional.empty()));
            TableDescription description = KitSupport.awaitStatus(tables, table, TableStatus.ACTIVE, ACTIVE_DEADLINE);
            List<String> differences = new ArrayList<>();
            int accepted = 0;
            int i = 0;
            for (Item item : items().sampleStream().limit(ITEMS).toList()) {
                i++;
                Optional<ErrorReason> expected;
                ItemWrite write = null;
                try {
                    write = ItemRules.forPut(description, item);
                    expected = Optional.empty();
                } catch (StorageException e) {
                    expected = Optional.of(e.reason());
                }
                Optional<ErrorReason> actual;
                String message = "";
                try {
                    tables.putItem(ACCOUNT, table, item);
                    actual = Optional.empty();
                } catch (StorageException e) {
                    actual = Optional.of(e.reason());
                    message = e.getMessage();
                }
                if (!expected.equals(actual)) {
                    String said = message;
                    differences.add("item " + i + " " + shown(item) + ": the rules say "
                            + expected.map(Enum::name).orElse("accept") + ", the backend said "
                            + actual.map(r -> r.name() + " (" + shortened(said) + ")").orElse("accepted"));
                } else if (write != null) {
                    accepted++;
                    Optional<Item> read = tables.getItem(ACCOUNT, table, write.key());
                    Item written = write.item();
                    if (!read.equals(Optional.of(written))) {
                        differences.add("item " + i + " " + shown(written) + " read back as "
                                + read.map(GeneratedItemChecks::shown).orElse("nothing"));
                    }
                }
                if (differences.size() >= 10) {
                    break;
                }
            }
            KitSupport.bestEffortDelete(tables, table);
            LOG.info("[R5] {}: {} of {} generated items accepted, {} differences", fixture.backendName(), accepted, i,
                    differences.size());
            if (!differences.isEmpty()) {
                throw new AssertionError("[R5] " + fixture.backendName() + " differs from the request rules on "
                        + differences.size() + " generated item(s) (" + accepted + " accepted as the rules said): "
                        + String.join("; ", differences));
            }
            if (accepted < ITEMS / 10 || accepted > ITEMS - 5) {
                throw new AssertionError("[R5] the generator should mix accepted and refused items; " + accepted
                        + " of " + ITEMS + " were accepted");
            }
        }
    }

    private static String shown(Item item) {
        StringBuilder out = new StringBuilder();
        item.attributes().forEach((k, v) -> out.append(escape(k)).append('=').append(v.typeName()).append(' ')
                .append(escape(String.valueOf(v))).append(", "));
        return shortened(out.toString());
    }

    private static String shortened(String text) {
        return text.length() > 300 ? text.substring(0, 300) + "..." : text;
    }

    private static String escape(String text) {
        StringBuilder out = new StringBuilder();
        text.chars().forEach(c -> out.append(c < 0x20 || Character.isSurrogate((char) c)
                ? String.format("\\u%04X", c) : String.valueOf((char) c)));
        return out.toString();
    }

    /** Strings over an alphabet that holds what backends have got wrong: NUL, U+0001, astral pairs, a lone surrogate. */
    static Arbitrary<String> strings(int maxLength) {
        return strings(0, maxLength);
    }

    /** Names: never empty (an empty one is refused, which {@link #items()} lets happen through values). */
    static Arbitrary<String> names(int maxLength) {
        return strings(1, maxLength);
    }

    static Arbitrary<String> strings(int minLength, int maxLength) {
        // Lone surrogates rarely, so most items are accepted and read back (where the faults hide) and
        // some are refused [R4].
        Arbitrary<String> pieces = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(40, Arbitraries.of("a", "b", "Z", "0", "\u0000", "\u0001", "?", "\u00e9",
                        "\u4e2d", "\uD83D\uDE00", " ", "\"", "\\")),
                net.jqwik.api.Tuple.of(1, Arbitraries.of("\uD800", "\uDC00")));
        return pieces.list().ofMinSize(minLength).ofMaxSize(maxLength).map(l -> String.join("", l));
    }

    static Arbitrary<String> numbers() {
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(12, Arbitraries.bigDecimals().between(new java.math.BigDecimal("-1E20"),
                        new java.math.BigDecimal("1E20")).ofScale(6).map(java.math.BigDecimal::toPlainString)),
                net.jqwik.api.Tuple.of(2, Arbitraries.of("1E125", "9.9E125", "1E-130", "-0", "0.000", "1E126", "1E-131",
                        "abc", "1e", "", " 1", "1" + "0".repeat(33), "NaN")));
    }

    static Arbitrary<AttributeValue> values(int depth) {
        List<Arbitrary<? extends AttributeValue>> choices = new ArrayList<>(List.of(
                strings(6).map(AttributeValue.S::new),
                numbers().map(AttributeValue.N::new),
                Arbitraries.bytes().array(byte[].class).ofMaxSize(4).map(AttributeValue::b),
                Arbitraries.of(true, false).map(AttributeValue.Bool::new),
                names(4).set().ofMinSize(1).ofMaxSize(3).map(s -> (AttributeValue) new AttributeValue.SS(s))));
        if (depth > 0) {
            choices.add(values(depth - 1).list().ofMaxSize(3).map(AttributeValue.L::new));
            choices.add(Combinators.combine(names(4), values(depth - 1)).as((k, v) -> (AttributeValue)
                    new AttributeValue.M(Map.of(k, v))));
        }
        return Arbitraries.oneOf(choices);
    }

    static Arbitrary<Item> items() {
        Arbitrary<AttributeValue> pk = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(16, names(6).map(AttributeValue.S::new)),
                net.jqwik.api.Tuple.of(1, strings(0, 0).map(AttributeValue.S::new)),
                net.jqwik.api.Tuple.of(1, numbers().map(AttributeValue.N::new)));
        Arbitrary<Optional<AttributeValue>> g = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(6, numbers().map(n -> Optional.of((AttributeValue) new AttributeValue.N(n)))),
                net.jqwik.api.Tuple.of(1, names(3).map(s -> Optional.of((AttributeValue) new AttributeValue.S(s)))),
                net.jqwik.api.Tuple.of(3, Arbitraries.just(Optional.empty())));
        Arbitrary<Map<String, AttributeValue>> others = Arbitraries.maps(
                Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(20, names(5)), net.jqwik.api.Tuple.of(1, strings(0, 0)),
                        net.jqwik.api.Tuple.of(1, Arbitraries.just("n".repeat(300)))),
                values(2)).ofMaxSize(3);
        return Combinators.combine(pk, g, others).as((p, gv, rest) -> {
            Map<String, AttributeValue> attributes = new LinkedHashMap<>(rest);
            attributes.remove("pk");
            attributes.remove("g");
            attributes.put("pk", p);
            gv.ifPresent(v -> attributes.put("g", v));
            return Item.of(attributes);
        });
    }

}
