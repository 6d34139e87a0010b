package dev.stillpoint.backup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.adapters.sqlite.SqliteConfig;
import dev.stillpoint.adapters.sqlite.SqliteStorage;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.Projection;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.ports.in.StoredItem;
import dev.stillpoint.ports.in.StoredKey;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

/**
 * The export's check answers in one pass (decode, key, PutItem's rules) for an item that passes, and parses
 * token by token only to name a failing item's fault [E1, V2]. The pass may only ever refuse more, never
 * less: for every text, the check refuses exactly what the token-by-token parse refuses, with its message.
 * The texts are sound items edited at random (a character dropped, put in, swapped; a piece doubled), so
 * they land on every kind of fault the parse names: a mutant that lets the pass accept a text the parse
 * refuses (say, a key attribute's type not compared with the definition) fails here.
 */
class ItemCheckOnePassTest {

    private static final TableDescription TABLE = table();
    private static final String KEY = "\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"}";
    private static final List<String> SOUND = List.of(
            "{" + KEY + "}",
            "{" + KEY + ",\"g\":{\"S\":\"gsi key\"},\"n\":{\"N\":\"-1.5E-3\"},\"b\":{\"B\":\"AAE=\"}}",
            "{" + KEY + ",\"t\":{\"BOOL\":false},\"z\":{\"NULL\":true},\"l\":{\"L\":[{\"S\":\"x\"},{\"N\":\"2\"}]},"
                    + "\"m\":{\"M\":{\"k\":{\"BS\":[\"QQ==\",\"QUI=\"]}}}}",
            "{ " + KEY + " , \"s\" : { \"SS\" : [\"a\",\"b\"] }, \"ns\":{\"NS\":[\"1\",\"10\"]},\"e\":{\"S\":\"\\u00e9\\n\"}}");
    private static final String EDITS = "{}[]\":,\\ SNBLMOULtrufase0123456789.-+E=/Qg\t\n\u0001\u00e9";

    /**
     * A stored key that is (S 'a', N 1), the key the rows of SOUND are stored under, compared as a backend's
     * stored key compares: a number by its value (01 is 1), a value that is no number matching nothing.
     */
    private static final StoredKey A1 = new StoredKey() {
        @Override
        public boolean matches(Key key) {
            return key.partition().equals(new AttributeValue.S("a"))
                    && key.sort().filter(s -> s instanceof AttributeValue.N n && isOne(n.text())).isPresent();
        }

        private static boolean isOne(String number) {
            try {
                return new BigDecimal(number).compareTo(BigDecimal.ONE) == 0;
            } catch (NumberFormatException e) {
                return false;
            }
        }

        @Override
        public String describe() {
            return "pk='a', sk=1";
        }
    };

    private record Stored(String json, Optional<StoredKey> storedKey) implements StoredItem {
        @Override
        public Item item() {
            return ItemJson.decode(json);
        }
    }

    @Property(tries = 3000)
    void theCheckRefusesExactlyWhatTheParseRefusesWithItsMessage(@ForAll("edited") String json, @ForAll boolean keyed) {
        Stored item = new Stored(json, keyed ? Optional.of(A1) : Optional.empty());
        byte[] utf8 = json.getBytes(StandardCharsets.UTF_8);
        ItemCheck check = new ItemCheck(TABLE);

        String parsed = check.problemParsed(item, utf8);
        Statistics.collect(parsed == null ? "passes" : "refused");

        assertThat(check.problem(item, utf8)).as(json).isEqualTo(parsed);
        assertThat(check.problem(item, null)).as("from the text: %s", json).isEqualTo(check.problemParsed(item, null));
        // Both verdicts drawn often enough to mean something: sound items and broken ones.
        Statistics.coverage(c -> {
            c.check("passes").percentage(p -> p > 5);
            c.check("refused").percentage(p -> p > 50);
        });
    }

    @Example
    void soundItemsPassAndFaultsOnlyTheParseNamesAreStillRefused() {
        ItemCheck check = new ItemCheck(TABLE);
        for (String json : SOUND) {
            assertThat(check.problem(new Stored(json, Optional.of(A1)), json.getBytes(StandardCharsets.UTF_8))).as(json).isNull();
        }
        // Decodable, each refused for its key: another type than defined, not a scalar, missing, not the stored key.
        for (String json : List.of("{\"pk\":{\"B\":\"YQ==\"},\"sk\":{\"N\":\"1\"}}", "{\"pk\":{\"SS\":[\"a\"]},\"sk\":{\"N\":\"1\"}}",
                "{\"pk\":{\"S\":\"a\"}}", "{\"pk\":{\"S\":\"b\"},\"sk\":{\"N\":\"1\"}}")) {
            assertThat(check.problem(new Stored(json, Optional.of(A1)), json.getBytes(StandardCharsets.UTF_8))).as(json)
                    .isNotNull().isEqualTo(check.problemParsed(new Stored(json, Optional.of(A1)), null));
        }
    }

    // A key value holding a NUL or a line break is named with them escaped: the message is one line of text.
    @Example
    void aKeyValuesControlCharactersAreEscapedInTheMessage() {
        String json = "{\"pk\":{\"S\":\"a\\u0000\\nb\"},\"sk\":{\"N\":\"1\"}}";
        String why = new ItemCheck(TABLE).problem(new Stored(json, Optional.of(A1)), json.getBytes(StandardCharsets.UTF_8));

        assertThat(why).contains("(S 'a\\u0000\\u000Ab', N '1') are not the key its row is stored under")
                .doesNotContain("\u0000").doesNotContain("\n");
    }

    @Provide
    Arbitrary<String> edited() {
        Arbitrary<Tuple.Tuple3<Integer, Integer, Character>> edit = Combinators.combine(
                Arbitraries.integers().between(0, 3), Arbitraries.integers().between(0, 10_000),
                Arbitraries.of(EDITS.chars().mapToObj(c -> (char) c).toList())).as(Tuple::of);
        return Combinators.combine(Arbitraries.of(SOUND), edit.list().ofMinSize(0).ofMaxSize(3)).as((sound, edits) -> {
            StringBuilder text = new StringBuilder(sound);
            for (Tuple.Tuple3<Integer, Integer, Character> e : edits) {
                int at = text.length() == 0 ? 0 : e.get2() % text.length();
                switch (e.get1()) {
                    case 0 -> text.insert(at, e.get3().charValue());
                    case 1 -> {
                        if (text.length() > 0) {
                            text.deleteCharAt(at);
                        }
                    }
                    case 2 -> {
                        if (text.length() > 0) {
                            text.setCharAt(at, e.get3());
                        }
                    }
                    default -> text.insert(at, text.substring(at, Math.min(text.length(), at + 1 + e.get2() % 24)));
                }
            }
            return text.toString();
        });
    }

    /** (pk S, sk N) with a GSI on g (S): what CreateTable answers, from a real in-memory engine. */
    private static TableDescription table() {
        try (SqliteStorage storage = SqliteStorage.open(SqliteConfig.inMemory())) {
            return storage.tables().createTable(new CreateTableRequest("000000000000", "things",
                    KeySchema.composite("pk", "sk"), List.of(new AttributeDefinition("pk", ScalarType.S),
                    new AttributeDefinition("sk", ScalarType.N), new AttributeDefinition("g", ScalarType.S)),
                    List.of(GlobalSecondaryIndex.creating("by_g", KeySchema.hashOnly("g"), Projection.all())), List.of(),
                    Optional.empty()));
        }
    }
}
