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
import dev.stillpoint.domain.request.RequestKey;
import dev.stillpoint.domain.table.CreateGsiRequest;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.LocalSecondaryIndex;
import dev.stillpoint.domain.table.Projection;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.in.TableOperations;
import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.ports.out.ReadObserver;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.assertj.core.api.SoftAssertions;

/** The checks of {@link RequestRulesKit} [R1-R4, R6]: each drives the public table operations of one engine. */
final class RequestRuleChecks {

    /** An internal record's or enum's toString ({@code Active[]}, {@code Deleting[due=...]}), or a Java class name. */
    static final Pattern INTERNAL_TEXT = Pattern.compile("\\b[A-Z][A-Za-z]*\\[[^\\]]*\\]|\\bdev\\.stillpoint\\.|\\bjava\\.[a-z]+\\."
            + "|\\b[A-Z][A-Za-z]*(Exception|Error)\\b");

    private RequestRuleChecks() {
    }

    static KitEngine start(ConformanceFixture fixture) {
        return fixture.start(new KitSettings(PageBudget.DEFAULT, ReadObserver.NONE, Duration.ZERO));
    }

    /** A hash-only S table named for {@code check}, ACTIVE. */
    static String hashTable(TableOperations tables, String check) {
        String table = KitSupport.uniqueName(check);
        tables.createTable(new CreateTableRequest(ACCOUNT, table, KeySchema.hashOnly("pk"),
                List.of(new AttributeDefinition("pk", ScalarType.S)), List.of(), List.of(), Optional.empty()));
        KitSupport.awaitStatus(tables, table, TableStatus.ACTIVE, ACTIVE_DEADLINE);
        return table;
    }

    /** What {@code call} threw, which must be a StorageException; {@code what} names the call for the message. */
    static StorageException refusal(String rule, String what, Runnable call) {
        try {
            call.run();
        } catch (StorageException e) {
            return e;
        } catch (RuntimeException e) {
            throw new AssertionError("[" + rule + "] " + what + " threw " + e.getClass().getSimpleName()
                    + " instead of a StorageException: " + e.getMessage(), e);
        }
        throw new AssertionError("[" + rule + "] " + what + " was accepted; it must be refused");
    }

    static void expectRefusal(SoftAssertions soft, String rule, String what, ErrorReason reason, Runnable call,
                              String... mentions) {
        StorageException e;
        try {
            e = refusal(rule, what, call);
        } catch (AssertionError missing) {
            soft.fail(missing.getMessage());
            return;
        }
        soft.assertThat(e.reason()).as("[%s] %s is refused as %s (message: %s)", rule, what, reason, e.getMessage())
                .isEqualTo(reason);
        for (String mention : mentions) {
            soft.assertThat(e.getMessage()).as("[%s] the refusal of %s names '%s'", rule, what, mention).contains(mention);
        }
        soft.assertThat(e.getMessage()).as("[R6] the refusal of %s carries no internal text", what)
                .doesNotContainPattern(INTERNAL_TEXT);
    }

    // ------------------------------------------------------------------------------------------
    // R1

    static void r1(ConformanceFixture fixture, boolean takesSnapshots) {
        try (KitEngine engine = start(fixture)) {
            TableOperations tables = engine.tables();
            String valid = hashTable(tables, "r1");
            SoftAssertions soft = new SoftAssertions();
            RequestKey key = RequestKey.of("pk", AttributeValue.s("k"));
            Item item = Item.of(Map.of("pk", AttributeValue.s("k")));
            CreateGsiRequest gsi = CreateGsiRequest.of(GlobalSecondaryIndex.creating("by_g", KeySchema.hashOnly("g"),
                    Projection.all()), new AttributeDefinition("g", ScalarType.S));
            for (String name : List.of("x", "ab", "bad name", "a/b", "t\u00e9ble", "a".repeat(256))) {
                String shown = name.length() > 20 ? name.substring(0, 20) : name;
                ErrorReason v = ErrorReason.VALIDATION;
                expectRefusal(soft, "R1", "DescribeTable of '" + shown + "'", v, () -> tables.describeTable(ACCOUNT, name), shown);
                expectRefusal(soft, "R1", "PutItem into '" + shown + "'", v, () -> tables.putItem(ACCOUNT, name, item), shown);
                expectRefusal(soft, "R1", "GetItem from '" + shown + "'", v, () -> tables.getItem(ACCOUNT, name, key), shown);
                expectRefusal(soft, "R1", "DeleteItem from '" + shown + "'", v, () -> tables.deleteItem(ACCOUNT, name, key), shown);
                expectRefusal(soft, "R1", "UpdateTable of '" + shown + "'", v,
                        () -> tables.addGlobalSecondaryIndex(ACCOUNT, name, gsi), shown);
                expectRefusal(soft, "R1", "DeleteTable of '" + shown + "'", v, () -> tables.deleteTable(ACCOUNT, name), shown);
                if (takesSnapshots) {
                    expectRefusal(soft, "R1", "a snapshot of '" + shown + "'", v,
                            () -> engine.snapshots().openTableSnapshot(ACCOUNT, name).items().close(), shown);
                } else {
                    expectRefusal(soft, "R1", "a snapshot of '" + shown + "' on a backend without snapshots [C1]",
                            ErrorReason.UNSUPPORTED, () -> engine.snapshots().openTableSnapshot(ACCOUNT, name));
                }
            }
            soft.assertThat(tables.describeTable(ACCOUNT, valid).status())
                    .as("[R1] the valid table is untouched by the refused calls").isEqualTo(TableStatus.ACTIVE);
            KitSupport.bestEffortDelete(tables, valid);
            soft.assertAll();
        }
    }

    // ------------------------------------------------------------------------------------------
    // R2

    static void r2(ConformanceFixture fixture) {
        try (KitEngine engine = start(fixture)) {
            TableOperations tables = engine.tables();
            SoftAssertions soft = new SoftAssertions();
            for (String account : List.of("acct'quote", "a:b", "a/b", "a b", "a".repeat(65), "")) {
                String shown = account.length() > 20 ? account.substring(0, 20) : account;
                expectRefusal(soft, "R2", "ListTables of account '" + shown + "'", ErrorReason.VALIDATION,
                        () -> tables.listTables(account), shown);
                expectRefusal(soft, "R2", "DescribeTable in account '" + shown + "'", ErrorReason.VALIDATION,
                        () -> tables.describeTable(account, "some_table"), shown);
                if (!account.isEmpty()) {
                    expectRefusal(soft, "R2", "CreateTable in account '" + shown + "'", ErrorReason.VALIDATION,
                            () -> tables.createTable(new CreateTableRequest(account, KitSupport.uniqueName("r2a"),
                                    KeySchema.hashOnly("pk"), List.of(new AttributeDefinition("pk", ScalarType.S)),
                                    List.of(), List.of(), Optional.empty())), shown);
                }
            }
            // Key attribute names: 255 bytes of UTF-8 are the most; 'é' is two bytes.
            for (String name : List.of("k".repeat(256), "\u00e9".repeat(128), "k".repeat(1000))) {
                expectRefusal(soft, "R2", "CreateTable with a key attribute name of " + name.length() + " characters",
                        ErrorReason.VALIDATION, () -> tables.createTable(new CreateTableRequest(ACCOUNT,
                                KitSupport.uniqueName("r2k"), KeySchema.hashOnly(name),
                                List.of(new AttributeDefinition(name, ScalarType.S)), List.of(), List.of(), Optional.empty())),
                        "255");
            }
            String longest = "k".repeat(255);
            String table = KitSupport.uniqueName("r2");
            tables.createTable(new CreateTableRequest(ACCOUNT, table, KeySchema.hashOnly(longest),
                    List.of(new AttributeDefinition(longest, ScalarType.S)), List.of(), List.of(), Optional.empty()));
            KitSupport.awaitStatus(tables, table, TableStatus.ACTIVE, ACTIVE_DEADLINE);
            String longName = "n".repeat(65_535);
            Item accepted = Item.of(Map.of(longest, AttributeValue.s("key"), longName, AttributeValue.s("v")));
            tables.putItem(ACCOUNT, table, accepted);
            soft.assertThat(tables.getItem(ACCOUNT, table, RequestKey.of(longest, AttributeValue.s("key"))))
                    .as("[R2] an item with a 255-byte key name and a 65,535-byte attribute name reads back equal")
                    .contains(accepted);
            expectRefusal(soft, "R2", "PutItem with an attribute name of 65,536 bytes", ErrorReason.VALIDATION,
                    () -> tables.putItem(ACCOUNT, table, Item.of(Map.of(longest, AttributeValue.s("other"),
                            "n".repeat(65_536), AttributeValue.s("v")))), "65535");
            expectRefusal(soft, "R2", "PutItem with an empty attribute name", ErrorReason.VALIDATION,
                    () -> tables.putItem(ACCOUNT, table, Item.of(Map.of(longest, AttributeValue.s("other"),
                            "", AttributeValue.s("v")))));
            soft.assertThat(tables.getItem(ACCOUNT, table, RequestKey.of(longest, AttributeValue.s("other"))))
                    .as("[R2] a refused put stores nothing").isEmpty();
            KitSupport.bestEffortDelete(tables, table);
            soft.assertAll();
        }
    }

    // ------------------------------------------------------------------------------------------
    // R3

    static void r3(ConformanceFixture fixture) {
        try (KitEngine engine = start(fixture)) {
            TableOperations tables = engine.tables();
            String table = KitSupport.uniqueName("r3");
            tables.createTable(new CreateTableRequest(ACCOUNT, table, KeySchema.composite("pk", "sk"),
                    List.of(new AttributeDefinition("pk", ScalarType.S), new AttributeDefinition("sk", ScalarType.N),
                            new AttributeDefinition("g", ScalarType.S), new AttributeDefinition("l", ScalarType.N)),
                    List.of(GlobalSecondaryIndex.creating("by_g", KeySchema.hashOnly("g"), Projection.all())),
                    List.of(LocalSecondaryIndex.of("by_l", KeySchema.composite("pk", "l"), Projection.all())),
                    Optional.empty()));
            KitSupport.awaitStatus(tables, table, TableStatus.ACTIVE, ACTIVE_DEADLINE);
            SoftAssertions soft = new SoftAssertions();
            Map<String, AttributeValue> wrongs = new LinkedHashMap<>();
            wrongs.put("g as N", AttributeValue.n("5"));
            wrongs.put("g as B", AttributeValue.b(new byte[] {1}));
            wrongs.put("g as an empty S", AttributeValue.s(""));
            int n = 0;
            for (Map.Entry<String, AttributeValue> wrong : wrongs.entrySet()) {
                Item item = Item.of(Map.of("pk", AttributeValue.s("p"), "sk", AttributeValue.n(Integer.toString(n++)),
                        "g", wrong.getValue()));
                expectRefusal(soft, "R3", "PutItem with " + wrong.getKey(), ErrorReason.VALIDATION,
                        () -> tables.putItem(ACCOUNT, table, item), "by_g", "'g'", "S");
                soft.assertThat(tables.getItem(ACCOUNT, table, RequestKey.of("pk", item.get("pk"), "sk", item.get("sk"))))
                        .as("[R3] the refused put with %s stored nothing", wrong.getKey()).isEmpty();
            }
            Item lsiWrong = Item.of(Map.of("pk", AttributeValue.s("p"), "sk", AttributeValue.n("10"),
                    "l", AttributeValue.s("not a number")));
            expectRefusal(soft, "R3", "PutItem with the LSI sort key l as S", ErrorReason.VALIDATION,
                    () -> tables.putItem(ACCOUNT, table, lsiWrong), "by_l", "'l'", "N");
            Item without = Item.of(Map.of("pk", AttributeValue.s("p"), "sk", AttributeValue.n("20"),
                    "other", AttributeValue.n("5")));
            tables.putItem(ACCOUNT, table, without);
            soft.assertThat(tables.getItem(ACCOUNT, table, RequestKey.of("pk", AttributeValue.s("p"), "sk", AttributeValue.n("20"))))
                    .as("[R3] an item without the index attributes is accepted (it is simply not in the index)")
                    .contains(without);
            Item right = Item.of(Map.of("pk", AttributeValue.s("p"), "sk", AttributeValue.n("21"),
                    "g", AttributeValue.s("ok"), "l", AttributeValue.n("1")));
            tables.putItem(ACCOUNT, table, right);
            soft.assertThat(tables.getItem(ACCOUNT, table, RequestKey.of("pk", AttributeValue.s("p"), "sk", AttributeValue.n("21"))))
                    .as("[R3] an item with well-typed index keys is accepted").contains(right);
            // A GSI added later is checked the same way as one created with the table.
            tables.addGlobalSecondaryIndex(ACCOUNT, table, CreateGsiRequest.of(GlobalSecondaryIndex.creating("by_h",
                    KeySchema.hashOnly("h"), Projection.keysOnly()), new AttributeDefinition("h", ScalarType.B)));
            KitSupport.awaitStatus(tables, table, TableStatus.ACTIVE, ACTIVE_DEADLINE);
            expectRefusal(soft, "R3", "PutItem with the added GSI's key h as S", ErrorReason.VALIDATION,
                    () -> tables.putItem(ACCOUNT, table, Item.of(Map.of("pk", AttributeValue.s("p"),
                            "sk", AttributeValue.n("30"), "h", AttributeValue.s("text")))), "by_h", "'h'");
            KitSupport.bestEffortDelete(tables, table);
            soft.assertAll();
        }
    }

    // ------------------------------------------------------------------------------------------
    // R4

    static void r4(ConformanceFixture fixture) {
        try (KitEngine engine = start(fixture)) {
            TableOperations tables = engine.tables();
            String table = hashTable(tables, "r4");
            SoftAssertions soft = new SoftAssertions();
            Item question = Item.of(Map.of("pk", AttributeValue.s("?"), "v", AttributeValue.s("the question mark")));
            tables.putItem(ACCOUNT, table, question);
            for (String lone : List.of("\uD800", "\uDC00", "a\uD83D", "\uDE00b")) {
                String hex = String.format("%04X", lone.chars().filter(c -> Character.isSurrogate((char) c)).findFirst().orElseThrow());
                expectRefusal(soft, "R4", "a key holding a lone surrogate U+" + hex, ErrorReason.VALIDATION,
                        () -> tables.putItem(ACCOUNT, table, Item.of(Map.of("pk", AttributeValue.s(lone)))), "pk", hex);
                expectRefusal(soft, "R4", "an S value holding U+" + hex, ErrorReason.VALIDATION,
                        () -> tables.putItem(ACCOUNT, table, Item.of(Map.of("pk", AttributeValue.s("s"),
                                "text", AttributeValue.s("x" + lone)))), "text", hex);
                expectRefusal(soft, "R4", "an attribute name holding U+" + hex, ErrorReason.VALIDATION,
                        () -> tables.putItem(ACCOUNT, table, Item.of(Map.of("pk", AttributeValue.s("s"),
                                "n" + lone, AttributeValue.s("x")))), hex);
                expectRefusal(soft, "R4", "a string set member holding U+" + hex, ErrorReason.VALIDATION,
                        () -> tables.putItem(ACCOUNT, table, Item.of(Map.of("pk", AttributeValue.s("s"),
                                "tags", new AttributeValue.SS(Set.of("ok", lone))))), "tags", hex);
                expectRefusal(soft, "R4", "a nested value holding U+" + hex, ErrorReason.VALIDATION,
                        () -> tables.putItem(ACCOUNT, table, Item.of(Map.of("pk", AttributeValue.s("s"),
                                "doc", new AttributeValue.M(Map.of("inner", new AttributeValue.L(List.of(
                                        AttributeValue.s(lone)))))))), "doc.inner[0]", hex);
                expectRefusal(soft, "R4", "GetItem by a key holding U+" + hex, ErrorReason.VALIDATION,
                        () -> tables.getItem(ACCOUNT, table, RequestKey.of("pk", AttributeValue.s(lone))), hex);
            }
            soft.assertThat(tables.getItem(ACCOUNT, table, RequestKey.of("pk", AttributeValue.s("?"))))
                    .as("[R4] the item under '?' is untouched by the refused lone-surrogate puts").contains(question);
            soft.assertThat(tables.getItem(ACCOUNT, table, RequestKey.of("pk", AttributeValue.s("s"))))
                    .as("[R4] no refused put stored anything").isEmpty();
            // NUL and its neighbours are ordinary characters, and distinct keys stay distinct.
            List<String> keys = List.of("a", "a\u0000", "a\u0000b", "a\u0001", "a\u0001\u0001", "\u0000", "a\uD83D\uDE00");
            for (String k : keys) {
                tables.putItem(ACCOUNT, table, Item.of(Map.of("pk", AttributeValue.s(k), "v", AttributeValue.s("v" + k),
                        "name\u0000with nul", AttributeValue.s("nul\u0000inside"),
                        "set", new AttributeValue.SS(Set.of("\u0000", "x\u0000y")))));
            }
            for (String k : keys) {
                Item expected = Item.of(Map.of("pk", AttributeValue.s(k), "v", AttributeValue.s("v" + k),
                        "name\u0000with nul", AttributeValue.s("nul\u0000inside"),
                        "set", new AttributeValue.SS(Set.of("\u0000", "x\u0000y"))));
                soft.assertThat(tables.getItem(ACCOUNT, table, RequestKey.of("pk", AttributeValue.s(k))))
                        .as("[R4] the item under key %s reads back equal, code point for code point",
                                k.codePoints().mapToObj(c -> String.format("U+%04X", c)).toList())
                        .contains(expected);
            }
            KitSupport.bestEffortDelete(tables, table);
            soft.assertAll();
        }
    }

    // ------------------------------------------------------------------------------------------
    // R6

    static void r6(ConformanceFixture fixture) {
        try (KitEngine engine = start(fixture)) {
            TableOperations tables = engine.tables();
            String table = hashTable(tables, "r6");
            SoftAssertions soft = new SoftAssertions();
            expectRefusal(soft, "R6", "a second CreateTable of '" + table + "'", ErrorReason.RESOURCE_IN_USE,
                    () -> tables.createTable(new CreateTableRequest(ACCOUNT, table, KeySchema.hashOnly("pk"),
                            List.of(new AttributeDefinition("pk", ScalarType.S)), List.of(), List.of(), Optional.empty())),
                    table);
            String missing = KitSupport.uniqueName("r6missing");
            expectRefusal(soft, "R6", "DescribeTable of a missing table", ErrorReason.TABLE_NOT_FOUND,
                    () -> tables.describeTable(ACCOUNT, missing), missing);
            expectRefusal(soft, "R6", "PutItem into a missing table", ErrorReason.TABLE_NOT_FOUND,
                    () -> tables.putItem(ACCOUNT, missing, Item.of(Map.of("pk", AttributeValue.s("k")))), missing);
            expectRefusal(soft, "R6", "a key of the wrong type", ErrorReason.VALIDATION,
                    () -> tables.getItem(ACCOUNT, table, RequestKey.of("pk", AttributeValue.n("1"))), "pk", "N");
            expectRefusal(soft, "R6", "an invalid number", ErrorReason.VALIDATION,
                    () -> tables.putItem(ACCOUNT, table, Item.of(Map.of("pk", AttributeValue.s("k"),
                            "n", new AttributeValue.N("12abc")))), "12abc");
            KitSupport.bestEffortDelete(tables, table);
            soft.assertAll();
        }
    }
}
