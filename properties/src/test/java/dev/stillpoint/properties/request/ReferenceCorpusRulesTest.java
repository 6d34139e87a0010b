package dev.stillpoint.properties.request;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.ItemLimits;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.request.ItemRules;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.properties.kit.DynamoReferenceCorpus;
import dev.stillpoint.properties.kit.ReferenceCase;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.jqwik.api.Example;
import org.assertj.core.api.SoftAssertions;

/**
 * [V1, V2] DynamoDB's item rules, stated once in {@code domain}, against the reference corpus: every
 * PutItem case of {@link DynamoReferenceCorpus} gets DynamoDB's verdict from {@link ItemRules#forPut}
 * itself (the rules every gate calls), with the wording the case names. The kit runs the same corpus
 * through every adapter; this runs it where PIT sees it.
 */
class ReferenceCorpusRulesTest {

    private static final TableDescription TABLE = DynamoReferenceCorpus.table("000000000000", "reference")
            .describe("id", "arn:aws:dynamodb:local:000000000000:table/reference", Instant.EPOCH);

    @Example
    void v1_everyCaseOfTheCorpusGetsDynamoDbsVerdictFromThePutRules() {
        SoftAssertions soft = new SoftAssertions();
        int puts = 0;
        for (ReferenceCase c : DynamoReferenceCorpus.cases()) {
            if (!(c.request() instanceof ReferenceCase.Put put)) {
                continue;
            }
            puts++;
            Optional<StorageException> refusal = refusal(put.item());
            if (c.accepted()) {
                soft.assertThat(refusal).as("[V1] %s (%s) is accepted", c.name(), c.source()).isEmpty();
            } else {
                soft.assertThat(refusal).as("[V1] %s (%s) is refused", c.name(), c.source()).isPresent();
                refusal.ifPresent(e -> {
                    soft.assertThat(e.reason()).as("[V1] %s is a validation error", c.name()).isEqualTo(ErrorReason.VALIDATION);
                    for (String mention : c.mentions()) {
                        soft.assertThat(e.getMessage()).as("[V1] the refusal of %s says '%s'", c.name(), mention)
                                .contains(mention);
                    }
                });
            }
        }
        soft.assertThat(puts).as("the corpus holds its PutItem cases").isGreaterThanOrEqualTo(50);
        soft.assertAll();
    }

    private static Optional<StorageException> refusal(Item item) {
        try {
            ItemRules.forPut(TABLE, item);
            return Optional.empty();
        } catch (StorageException e) {
            return Optional.of(e);
        }
    }

    // [V1] DynamoDB's wording for an empty set, its double space included, at the top level and nested,
    // naming the attribute's path [R6].
    @Example
    void v1_emptySetsAreRefusedInDynamoDbsWordsNamingThePath() {
        Item top = Item.of(Map.of("pk", AttributeValue.s("a"), "sk", AttributeValue.s("b"),
                "attr", new AttributeValue.SS(java.util.Set.of())));
        assertThat(refusal(top)).get().extracting(Throwable::getMessage).asString()
                .startsWith("One or more parameter values were invalid: An string set  may not be empty")
                .contains("'attr'");
        Item nested = Item.of(Map.of("pk", AttributeValue.s("a"), "sk", AttributeValue.s("b"),
                "attr", new AttributeValue.M(Map.of("x", new AttributeValue.L(List.of(new AttributeValue.NS(java.util.Set.of())))))));
        assertThat(refusal(nested)).get().extracting(Throwable::getMessage).asString()
                .contains("An number set  may not be empty").contains("'attr.x[0]'");
    }

    // [V1] 32 levels, a top-level attribute's value being level 1: the message says which attribute, at
    // which level, in DynamoDB's words.
    @Example
    void v1_nestingIsCountedFromTheTopLevelAttributesValueAsLevelOne() {
        AttributeValue value = AttributeValue.s("leaf");
        for (int i = 0; i < ItemLimits.MAX_NESTING_LEVELS - 1; i++) {
            value = new AttributeValue.L(List.of(value));
        }
        Item level32 = Item.of(Map.of("pk", AttributeValue.s("a"), "sk", AttributeValue.s("b"), "d", value));
        assertThat(refusal(level32)).as("a scalar at level 32 (31 lists around it)").isEmpty();
        Item level33 = level32.with("d", new AttributeValue.L(List.of(value)));
        assertThat(refusal(level33)).get().extracting(Throwable::getMessage).asString()
                .startsWith("Nesting Levels have exceeded supported limits")
                .contains("'d" + "[0]".repeat(32) + "' is at level 33");
    }

    // [V1] The guide's formula: an L costs 3 bytes plus 1 byte per element, an M 3 bytes plus, per element,
    // 1 byte and its name.
    @Example
    void v1_listsAndMapsCostOneBytePerElement() {
        assertThat(Item.sizeOf(new AttributeValue.L(List.of()))).isEqualTo(3);
        assertThat(Item.sizeOf(new AttributeValue.L(List.of(AttributeValue.s("ab"), AttributeValue.s(""))))).isEqualTo(3 + 3 + 1);
        assertThat(Item.sizeOf(new AttributeValue.M(Map.of()))).isEqualTo(3);
        assertThat(Item.sizeOf(new AttributeValue.M(Map.of("name", AttributeValue.s("ab"))))).isEqualTo(3 + 1 + 4 + 2);
        assertThat(Item.sizeOf(new AttributeValue.L(List.of(new AttributeValue.M(Map.of("n", AttributeValue.s("x")))))))
                .isEqualTo(3 + 1 + (3 + 1 + 1 + 1));
    }

    // [V1] A put whose index key value is over its limit is refused naming the attribute, its role in which
    // index, its size and the limit: "The maximum length of a partition key is 2048 bytes, and the maximum
    // length of a sort key is 1024 bytes" for an index key attribute too
    // (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.OnlineOps.ViolationDetection.html;
    // the key lengths: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Constraints.html#limits-partition-sort-keys).
    @Example
    void v1_anIndexKeyOverItsLimitIsRefusedNamingItsRoleSizeAndLimit() {
        Item base = Item.of(Map.of("pk", AttributeValue.s("a"), "sk", AttributeValue.s("b")));
        assertThat(refusal(base.with("g", AttributeValue.s("g".repeat(2049))))).get()
                .extracting(Throwable::getMessage).asString()
                .contains("attribute 'g' is a partition key of index 'by_g' of table 'reference' and its value is 2049 bytes,"
                        + " over the index key limit of 2048 bytes");
        assertThat(refusal(base.with("g", AttributeValue.s("g")).with("gs", AttributeValue.s("h".repeat(1025))))).get()
                .extracting(Throwable::getMessage).asString()
                .contains("attribute 'gs' is a sort key of index 'by_g' of table 'reference' and its value is 1025 bytes,"
                        + " over the index key limit of 1024 bytes");
        assertThat(refusal(base.with("l", AttributeValue.s("l".repeat(1025))))).get()
                .extracting(Throwable::getMessage).asString()
                .contains("attribute 'l' is a sort key of index 'by_l' of table 'reference' and its value is 1025 bytes,"
                        + " over the index key limit of 1024 bytes");
    }

    // [V1, V2] A GSI backfill leaves an item whose index key is over its limit out of the index (DynamoDB's
    // index key violation: the item stays in the table, the index has no entry), and keeps one at the limit.
    @Example
    void v2_theBackfillLeavesAnOverlongIndexKeyOutOfTheIndex() {
        Item atLimit = Item.of(Map.of("pk", AttributeValue.s("a"), "sk", AttributeValue.s("b"),
                "g", AttributeValue.s("g".repeat(2048)), "gs", AttributeValue.s("s".repeat(1024))));
        assertThat(ItemRules.entryKeyOfStoredItem(TABLE, "by_g", atLimit))
                .contains(Key.of(atLimit.get("g"), atLimit.get("gs")));
        assertThat(ItemRules.entryKeyOfStoredItem(TABLE, "by_g", atLimit.with("g", AttributeValue.s("g".repeat(2049)))))
                .isEmpty();
        assertThat(ItemRules.entryKeyOfStoredItem(TABLE, "by_g", atLimit.with("gs", AttributeValue.s("s".repeat(1025)))))
                .isEmpty();
        assertThat(ItemRules.entryKeyOfStoredItem(TABLE, "by_l", atLimit.with("l", AttributeValue.s("l".repeat(1024)))))
                .isPresent();
        assertThat(ItemRules.entryKeyOfStoredItem(TABLE, "by_l", atLimit.with("l", AttributeValue.s("l".repeat(1025)))))
                .isEmpty();
    }
}
