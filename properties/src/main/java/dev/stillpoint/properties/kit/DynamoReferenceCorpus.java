package dev.stillpoint.properties.kit;

import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.LocalSecondaryIndex;
import dev.stillpoint.domain.table.Projection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The DynamoDB reference corpus [V1]: requests with the verdict DynamoDB's developer guide gives them,
 * each boundary from both sides, each case citing its page. It answers "do we agree with DynamoDB", not
 * only "do the backends agree": nothing here is computed by Stillpoint's own rules (sizes are summed by
 * the guide's formula in this file). Add a case by adding a line to {@link #cases()}.
 *
 * <p>The reference table: partition key {@code pk} (S), sort key {@code sk} (S), a GSI {@code by_g} on
 * {@code g} (S) and {@code gs} (S), an LSI {@code by_l} on {@code pk} and {@code l} (S), projections ALL.
 */
public final class DynamoReferenceCorpus {

    private static final String GUIDE = "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/";
    /** "DynamoDB does not support empty sets"; "Each value within a set must be unique". */
    static final String SETS = GUIDE + "HowItWorks.NamingRulesDataTypes.html#HowItWorks.DataTypes.SetTypes";
    /** "Numbers can have up to 38 digits of precision"; positive range 1E-130 to 9.99...E+125. */
    static final String NUMBERS = GUIDE + "HowItWorks.NamingRulesDataTypes.html#HowItWorks.DataTypes.Number";
    /** "DynamoDB supports nested attributes up to 32 levels deep" (levels counted as in {@code ItemLimits}). */
    static final String NESTING = GUIDE + "Constraints.html#limits-attributes";
    /** 400 KB items; 3 bytes per L or M, 1 byte per element. */
    static final String ITEM_SIZE = GUIDE + "CapacityUnitCalculations.html and " + GUIDE + "Constraints.html#limits-items";
    /**
     * A number's bytes at the 400 KB gate as measured against DynamoDB, each literal byte-exact by an item of 409,600
     * bytes accepted and one of 409,601 refused (the Parity Suite's capture of 2026-08-18, eu-west-2); the guide's
     * "1 byte per two significant digits plus 1 byte" is an approximation of it.
     */
    static final String NUMBER_SIZE = "https://github.com/nubo-db/dynamodb-conformance/blob/main/src/item-size.ts";
    /** "The maximum length of a partition key value is 2048 bytes", sort key 1024. */
    static final String KEY_LENGTHS = GUIDE + "Constraints.html#limits-partition-sort-keys";
    /** Index keys: "The maximum length of a partition key is 2048 bytes, and ... of a sort key is 1024 bytes". */
    static final String INDEX_KEYS = GUIDE + "GSI.OnlineOps.ViolationDetection.html";

    /**
     * DynamoDB's answer to an index key of another type than its definition, as dynalite's tests (run against
     * DynamoDB itself with REMOTE set) record it: "Type mismatch for Index Key c Expected: S Actual: N IndexName: ...".
     */
    static final String DYNALITE_PUT_ITEM = "https://github.com/mhart/dynalite/blob/master/test/putItem.js";

    /** The item size limit, 400 KB with 1 KB = 1024 bytes (Constraints.html). */
    static final int ITEM_LIMIT = 400 * 1024;

    private static final String EMPTY_SS = "An string set  may not be empty";
    private static final String EMPTY_NS = "An number set  may not be empty";
    private static final String EMPTY_BS = "Binary sets should not be empty";
    private static final String TOO_DEEP = "Nesting Levels have exceeded supported limits";
    private static final String TOO_BIG = "Item size has exceeded the maximum allowed size";

    private DynamoReferenceCorpus() {
    }

    /**
     * The reference table's definition.
     *
     * @param accountId the account
     * @param table     the table's name
     * @return the CreateTable request
     */
    public static CreateTableRequest table(String accountId, String table) {
        return new CreateTableRequest(accountId, table, KeySchema.composite("pk", "sk"),
                List.of(new AttributeDefinition("pk", ScalarType.S), new AttributeDefinition("sk", ScalarType.S),
                        new AttributeDefinition("g", ScalarType.S), new AttributeDefinition("gs", ScalarType.S),
                        new AttributeDefinition("l", ScalarType.S)),
                List.of(GlobalSecondaryIndex.creating("by_g", KeySchema.composite("g", "gs"), Projection.all())),
                List.of(LocalSecondaryIndex.of("by_l", KeySchema.composite("pk", "l"), Projection.all())),
                Optional.empty());
    }

    /**
     * Every case, in a fixed order; each puts under its own key.
     *
     * @return the cases
     */
    public static List<ReferenceCase> cases() {
        Cases c = new Cases();
        // Sets: never empty, at any depth; one member is a set.
        AttributeValue ss1 = new AttributeValue.SS(new LinkedHashSet<>(List.of("a")));
        AttributeValue ns1 = new AttributeValue.NS(new LinkedHashSet<>(List.of("1")));
        AttributeValue bs1 = new AttributeValue.BS(List.of(new byte[] {1}));
        AttributeValue ss0 = new AttributeValue.SS(new LinkedHashSet<>());
        AttributeValue ns0 = new AttributeValue.NS(new LinkedHashSet<>());
        AttributeValue bs0 = new AttributeValue.BS(List.of());
        for (int depth = 1; depth <= 3; depth++) {
            String where = depth == 1 ? "at the top level" : depth == 2 ? "inside L" : "inside M inside L";
            c.refused("SS empty " + where, c.put("v", wrap(ss0, depth)), SETS, EMPTY_SS, "'v");
            c.refused("NS empty " + where, c.put("v", wrap(ns0, depth)), SETS, EMPTY_NS, "'v");
            c.refused("BS empty " + where, c.put("v", wrap(bs0, depth)), SETS, EMPTY_BS, "'v");
            c.accepted("SS of one member " + where, c.put("v", wrap(ss1, depth)), SETS);
            c.accepted("NS of one member " + where, c.put("v", wrap(ns1, depth)), SETS);
            c.accepted("BS of one member " + where, c.put("v", wrap(bs1, depth)), SETS);
        }
        c.refused("SS empty inside M", c.put("v", new AttributeValue.M(Map.of("k", ss0))), SETS, EMPTY_SS, "'v.k'");
        c.refused("BS holding one value twice", c.put("v", new AttributeValue.BS(List.of(new byte[] {7}, new byte[] {7}))),
                SETS, "duplicates", "'v'");

        // Nesting: a top-level attribute's value is level 1; 32 levels at most.
        c.accepted("a scalar at level 32 inside 31 M", c.put("v", nested(31, false)), NESTING);
        c.refused("a scalar at level 33 inside 32 M", c.put("v", nested(32, false)), NESTING, TOO_DEEP, "'v");
        c.accepted("a scalar at level 32 inside 31 L", c.put("v", nested(31, true)), NESTING);
        c.refused("a scalar at level 33 inside 32 L", c.put("v", nested(32, true)), NESTING, TOO_DEEP, "'v");
        c.accepted("an empty M at level 32", c.put("v", emptyMapAtLevel(32)), NESTING);
        c.refused("an empty M at level 33", c.put("v", emptyMapAtLevel(33)), NESTING, TOO_DEEP, "'v");

        // Item size by the guide's formula, L and M counted 3 bytes plus 1 byte per element.
        for (boolean map : List.of(false, true)) {
            String kind = map ? "an M of 100 strings" : "an L of 100 strings";
            c.accepted("an item of exactly 400 KB holding " + kind, c.sized(map, ITEM_LIMIT), ITEM_SIZE);
            c.refused("an item one byte over 400 KB holding " + kind, c.sized(map, ITEM_LIMIT + 1), ITEM_SIZE, TOO_BIG);
        }

        // Numbers at the gate, at their measured cost: a sign byte, integer and fraction halves, zero one byte.
        for (String[] n : new String[][] {{"-3.14159", "6"}, {"100.5", "4"}, {"0", "1"}}) {
            int cost = Integer.parseInt(n[1]);
            c.accepted("an item of exactly 400 KB holding N " + n[0], c.sizedWithNumber(n[0], cost, ITEM_LIMIT), NUMBER_SIZE);
            c.refused("an item one byte over 400 KB holding N " + n[0], c.sizedWithNumber(n[0], cost, ITEM_LIMIT + 1),
                    NUMBER_SIZE, TOO_BIG);
        }

        // Key lengths, table and indexes, in UTF-8 bytes.
        c.accepted("a partition key of 2,048 bytes", c.withKey(c.fill(2048), "s"), KEY_LENGTHS);
        c.refused("a partition key of 2,049 bytes", c.withKey(c.fill(2049), "s"), KEY_LENGTHS, "2048", "'pk'");
        c.refused("a partition key of 683 three-byte characters (2,049 bytes)", c.withKey("\u20ac".repeat(683), "s"),
                KEY_LENGTHS, "2048", "'pk'");
        c.accepted("a sort key of 1,024 bytes", c.withKey(c.fill(8), "t".repeat(1024)), KEY_LENGTHS);
        c.refused("a sort key of 1,025 bytes", c.withKey(c.fill(8), "t".repeat(1025)), KEY_LENGTHS, "1024", "'sk'");
        c.accepted("a GSI partition key of 2,048 bytes", c.put("g", AttributeValue.s("g".repeat(2048))), INDEX_KEYS);
        c.refused("a GSI partition key of 2,049 bytes", c.put("g", AttributeValue.s("g".repeat(2049))), INDEX_KEYS,
                "2048", "'g'", "by_g");
        c.accepted("a GSI sort key of 1,024 bytes", c.put("g", AttributeValue.s("g"), "gs", AttributeValue.s("h".repeat(1024))),
                INDEX_KEYS);
        c.refused("a GSI sort key of 1,025 bytes", c.put("g", AttributeValue.s("g"), "gs", AttributeValue.s("h".repeat(1025))),
                INDEX_KEYS, "1024", "'gs'", "by_g");
        // An index key attribute the item holds is checked even where the item stays out of the index (its other
        // key attribute absent); dynalite's tests record DynamoDB's words for the type.
        c.refused("a GSI sort key of type N, the GSI partition key absent", c.put("gs", AttributeValue.n("1")),
                INDEX_KEYS + " and " + DYNALITE_PUT_ITEM, "Type mismatch for Index Key gs Expected: S Actual: N IndexName: by_g");
        c.refused("an empty GSI sort key, the GSI partition key absent", c.put("gs", AttributeValue.s("")), INDEX_KEYS,
                "'gs'", "by_g", "empty S");
        c.refused("a GSI sort key of 1,025 bytes, the GSI partition key absent", c.put("gs", AttributeValue.s("h".repeat(1025))),
                INDEX_KEYS, "1024", "'gs'", "by_g");
        c.accepted("a GSI sort key alone (the item stays out of the index)", c.put("gs", AttributeValue.s("h")), INDEX_KEYS);
        c.accepted("an LSI sort key of 1,024 bytes", c.put("l", AttributeValue.s("l".repeat(1024))), INDEX_KEYS);
        c.refused("an LSI sort key of 1,025 bytes", c.put("l", AttributeValue.s("l".repeat(1025))), INDEX_KEYS,
                "1024", "'l'", "by_l");

        // Numbers: 38 significant digits, magnitude 1E-130 to 9.99...E+125.
        String digits38 = "12345678901234567890123456789012345678";
        c.accepted38("an N of 38 significant digits", c.put("v", AttributeValue.n(digits38)), NUMBERS);
        c.refused("an N of 39 significant digits", c.put("v", new AttributeValue.N(digits38 + "9")), NUMBERS,
                "38 significant digits", "'v'");
        c.refused("an NS member of 39 significant digits", c.put("v", new AttributeValue.NS(
                new LinkedHashSet<>(List.of("1", digits38 + "9")))), NUMBERS, "38 significant digits", "'v'");
        c.refused("an N of 39 significant digits inside L", c.put("v", new AttributeValue.L(List.of(
                new AttributeValue.N(digits38 + "9")))), NUMBERS, "38 significant digits", "'v[0]'");
        c.accepted38("the largest N, 9.9999999999999999999999999999999999999E+125",
                c.put("v", AttributeValue.n("9.9999999999999999999999999999999999999E+125")), NUMBERS);
        c.refused("an N of 1E+126", c.put("v", new AttributeValue.N("1E+126")), NUMBERS, "Number overflow", "'v'");
        c.refused("an N of 1e200", c.put("v", new AttributeValue.N("1e200")), NUMBERS, "Number overflow", "'v'");
        c.accepted("the smallest positive N, 1E-130", c.put("v", AttributeValue.n("1E-130")), NUMBERS);
        c.refused("an N of 1E-131", c.put("v", new AttributeValue.N("1E-131")), NUMBERS, "Number underflow", "'v'");
        c.refused("an N of 'zero'", c.put("v", new AttributeValue.N("zero")), NUMBERS,
                "cannot be converted into a number", "'v'");
        c.refused("an NS holding 'one'", c.put("v", new AttributeValue.NS(new LinkedHashSet<>(List.of("1", "one")))),
                NUMBERS, "cannot be converted into a number", "'v'");
        return List.copyOf(c.cases);
    }

    /** {@code leaf} as the value of a top-level attribute at {@code depth}: 1 as is, 2 inside L, 3 inside M inside L. */
    private static AttributeValue wrap(AttributeValue leaf, int depth) {
        return switch (depth) {
            case 1 -> leaf;
            case 2 -> new AttributeValue.L(List.of(leaf));
            default -> new AttributeValue.L(List.of(new AttributeValue.M(Map.of("k", leaf))));
        };
    }

    /** An S inside {@code containers} nested L (or M): the S is on level {@code containers + 1}. */
    private static AttributeValue nested(int containers, boolean lists) {
        AttributeValue value = AttributeValue.s("leaf");
        for (int i = 0; i < containers; i++) {
            value = lists ? new AttributeValue.L(List.of(value)) : new AttributeValue.M(Map.of("k", value));
        }
        return value;
    }

    /** An empty M on {@code level}, inside M values on every level above it. */
    private static AttributeValue emptyMapAtLevel(int level) {
        AttributeValue value = new AttributeValue.M(Map.of());
        for (int i = 1; i < level; i++) {
            value = new AttributeValue.M(Map.of("k", value));
        }
        return value;
    }

    /** The cases as they are listed, each with its own partition key. */
    private static final class Cases {
        private final List<ReferenceCase> cases = new ArrayList<>();

        /** A key no other case uses: "c" and the case's number. */
        private String nextKey() {
            return "c" + cases.size();
        }

        /** This case's key padded with 'p' to {@code bytes} bytes (ASCII). */
        String fill(int bytes) {
            String key = nextKey() + "-";
            return key + "p".repeat(bytes - key.length());
        }

        /** An item under this case's key (sk "s") holding {@code attributes} as name, value pairs. */
        Item put(Object... attributes) {
            Map<String, AttributeValue> item = new LinkedHashMap<>();
            item.put("pk", AttributeValue.s(nextKey()));
            item.put("sk", AttributeValue.s("s"));
            for (int i = 0; i < attributes.length; i += 2) {
                item.put((String) attributes[i], (AttributeValue) attributes[i + 1]);
            }
            return Item.of(item);
        }

        Item withKey(String pk, String sk) {
            return Item.of(Map.of("pk", AttributeValue.s(pk), "sk", AttributeValue.s(sk)));
        }

        /**
         * An item of exactly {@code bytes} by the guide's formula: pk and sk (S: name bytes plus value bytes),
         * and attribute "v" holding 100 ASCII strings in an L (3 + per element 1 + its bytes) or an M
         * (3 + per element 1 + name bytes + value bytes, names "k00" to "k99").
         */
        Item sized(boolean map, int bytes) {
            String pk = nextKey();
            long keys = ("pk".length() + pk.length()) + ("sk".length() + "s".length());
            long overhead = "v".length() + 3 + 100 * (1 + (map ? 3 : 0));
            long strings = bytes - keys - overhead;
            int each = (int) (strings / 100);
            List<AttributeValue> values = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                int length = i == 99 ? (int) (strings - 99L * each) : each;
                values.add(AttributeValue.s("x".repeat(length)));
            }
            AttributeValue v;
            if (map) {
                Map<String, AttributeValue> entries = new LinkedHashMap<>();
                for (int i = 0; i < 100; i++) {
                    entries.put(String.format("k%02d", i), values.get(i));
                }
                v = new AttributeValue.M(entries);
            } else {
                v = new AttributeValue.L(values);
            }
            return Item.of(Map.of("pk", AttributeValue.s(pk), "sk", AttributeValue.s("s"), "v", v));
        }

        /** An item of exactly {@code bytes}: pk, sk "s", "n" holding {@code number} of {@code cost} bytes, "v" padding. */
        Item sizedWithNumber(String number, int cost, int bytes) {
            String pk = nextKey();
            long fixed = ("pk".length() + pk.length()) + ("sk".length() + "s".length()) + ("n".length() + cost) + "v".length();
            return Item.of(Map.of("pk", AttributeValue.s(pk), "sk", AttributeValue.s("s"), "n", new AttributeValue.N(number),
                    "v", AttributeValue.s("x".repeat((int) (bytes - fixed)))));
        }

        void accepted(String name, Item item, String source) {
            cases.add(new ReferenceCase(name, new ReferenceCase.Put(item), true, List.of(), 0, source));
        }

        void accepted38(String name, Item item, String source) {
            cases.add(new ReferenceCase(name, new ReferenceCase.Put(item), true, List.of(), 38, source));
        }

        void refused(String name, Item item, String source, String... mentions) {
            cases.add(new ReferenceCase(name, new ReferenceCase.Put(item), false, List.of(mentions), 0, source));
        }
    }
}
