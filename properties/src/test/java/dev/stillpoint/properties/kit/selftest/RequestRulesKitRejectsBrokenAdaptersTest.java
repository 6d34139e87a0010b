package dev.stillpoint.properties.kit.selftest;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.properties.kit.RequestRulesKit;
import net.jqwik.api.Example;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/**
 * The request-rules kit against deliberately broken adapters: each request-rule {@link Flaw} of the
 * reference (one of the findings that made the core service necessary) must fail the rule that
 * targets it, on the assertion that names it, while the correct reference passes every rule.
 */
class RequestRulesKitRejectsBrokenAdaptersTest {

    private static RequestRulesKit kitAgainst(Flaw flaw) {
        ReferenceFixture fixture = new ReferenceFixture(flaw);
        return () -> fixture;
    }

    private static void failsOn(ThrowingCallable check, String... assertions) {
        var thrown = assertThatThrownBy(check).isInstanceOf(AssertionError.class);
        for (String assertion : assertions) {
            thrown.hasMessageContaining(assertion);
        }
    }

    @Example
    void tableNamesUnchecked_failR1_aMissingTableInsteadOfAValidationError() {
        RequestRulesKit kit = kitAgainst(Flaw.TABLE_NAMES_UNCHECKED);
        failsOn(kit::r1_anInvalidTableNameIsAValidationErrorOnEveryOperation,
                "[R1] DescribeTable of 'bad name' is refused as VALIDATION");
        assertThatCode(kit::r3_indexKeyAttributesHaveTheIndexsTypeAndAreNotEmpty).doesNotThrowAnyException();
    }

    @Example
    void keyNamesAndAccountsUnchecked_failR2() {
        failsOn(kitAgainst(Flaw.KEY_NAMES_AND_ACCOUNTS_UNCHECKED)::r2_attributeNameLengthsAndAccountIds,
                "[R2] CreateTable with a key attribute name of 256 characters was accepted",
                "[R2] ListTables of account 'acct'quote' was accepted");
    }

    @Example
    void indexKeysUnchecked_failR3_onTheWrongTypeAndTheEmptyValue() {
        failsOn(kitAgainst(Flaw.INDEX_KEYS_UNCHECKED)::r3_indexKeyAttributesHaveTheIndexsTypeAndAreNotEmpty,
                "[R3] PutItem with g as N was accepted",
                "[R3] PutItem with g as an empty S was accepted",
                "[R3] the refused put with g as N stored nothing");
    }

    @Example
    void loneSurrogatesStoredAsQuestionMarks_failR4_andR5() {
        RequestRulesKit kit = kitAgainst(Flaw.LONE_SURROGATES_STORED_AS_QUESTION_MARKS);
        failsOn(kit::r4_loneSurrogatesAreRefusedAndNulRoundTrips,
                "[R4] a key holding a lone surrogate U+D800 was accepted",
                "[R4] the item under '?' is untouched by the refused lone-surrogate puts");
        failsOn(kit::r5_generatedItemsAreAcceptedAndRefusedAsTheRulesSayAndReadBackEqual,
                "[R5] reference with LONE_SURROGATES_STORED_AS_QUESTION_MARKS differs from the request rules");
    }

    @Example
    void nulDropped_failR4_andR5() {
        RequestRulesKit kit = kitAgainst(Flaw.NUL_DROPPED);
        failsOn(kit::r4_loneSurrogatesAreRefusedAndNulRoundTrips, "[R4] the item under key [U+0061, U+0000] reads back equal, code point for code point");
        failsOn(kit::r5_generatedItemsAreAcceptedAndRefusedAsTheRulesSayAndReadBackEqual, "[R5]", "read back as");
    }

    @Example
    void internalStateInMessages_failR6() {
        failsOn(kitAgainst(Flaw.INTERNAL_STATE_IN_MESSAGES)::r6_messagesNameTheValueAndCarryNoInternalText,
                "[R6] the refusal of a second CreateTable");
    }

    @Example
    void batchAppliedOneByOne_failsR7_onTheDuplicateAndOnThePartlyAppliedBatch() {
        failsOn(kitAgainst(Flaw.BATCH_APPLIED_ONE_BY_ONE)::r7_batchWriteItemAppliesWholeOrRefusesWhole,
                "[R7] a batch with the key (d, 7) twice was accepted",
                "[R7] the batch refused for one bad item applied nothing");
    }

    // [V1] The reference corpus rejects an adapter that stores an empty set, on the corpus line that targets it.
    @Example
    void emptySetsAccepted_failV1_onTheEmptySetCasesOnly() {
        failsOn(kitAgainst(Flaw.EMPTY_SETS_ACCEPTED)::v1_theReferenceCorpusGetsDynamoDbsVerdictOnEveryCase,
                "[V1] PutItem of SS empty at the top level (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/"
                        + "HowItWorks.NamingRulesDataTypes.html#HowItWorks.DataTypes.SetTypes) was accepted",
                "[V1] PutItem of NS empty inside L (",
                "[V1] PutItem of BS empty inside M inside L (",
                "[V1] PutItem of SS empty inside M (");
    }

    @Example
    void theCorrectReferencePassesV1() {
        assertThatCode(kitAgainst(Flaw.NONE)::v1_theReferenceCorpusGetsDynamoDbsVerdictOnEveryCase).doesNotThrowAnyException();
    }

    @Example
    void theCorrectReferencePassesR7() {
        assertThatCode(kitAgainst(Flaw.NONE)::r7_batchWriteItemAppliesWholeOrRefusesWhole).doesNotThrowAnyException();
    }

    // V3: an adapter that keeps only the key schema's attributes of the request's key (what Key.of(Item,
    // KeySchema) did) accepts what DynamoDB refuses; the corpus names the request.
    @Example
    void extraKeyAttributesDropped_failV3_onEveryOperationAndShape() {
        failsOn(kitAgainst(Flaw.EXTRA_KEY_ATTRIBUTES_DROPPED)::v3_requestKeysAreExactAsDynamoDbDocumentsThem,
                "[V3] GetItem with an extra attribute v on a hash-only table",
                "[V3] DeleteItem with an extra attribute v on a hash+range table",
                "[V3] a batch DeleteRequest with an extra sort value sk on a hash-only table");
    }

    @Example
    void theCorrectReferencePassesV3() {
        assertThatCode(kitAgainst(Flaw.NONE)::v3_requestKeysAreExactAsDynamoDbDocumentsThem).doesNotThrowAnyException();
    }
}
