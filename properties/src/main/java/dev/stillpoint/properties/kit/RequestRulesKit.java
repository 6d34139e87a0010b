package dev.stillpoint.properties.kit;

import net.jqwik.api.Example;

/**
 * The request-rules conformance kit [R1-R6]: DynamoDB's rules, which the core service applies once,
 * checked end to end on every adapter against its live database, so a backend that loses or changes
 * what it was given (a lone surrogate stored as {@code '?'}, a NUL refused, an index key of the wrong
 * type stored) fails here. One entry per rule of SPEC.md section R; each failure names its rule in
 * brackets. An adapter's test class implements this interface beside {@link SnapshotConformanceKit}:
 *
 * <pre>{@code
 * class SqliteRequestRulesProperties implements RequestRulesKit {
 *     public ConformanceFixture fixture() { return new SqliteFixture(...); }
 * }
 * }</pre>
 */
public interface RequestRulesKit {

    /** The adapter under test. Called once per check; may return a new fixture each time. */
    ConformanceFixture fixture();

    /**
     * Whether the backend takes snapshots. A backend that refuses them by design answers an open
     * Unsupported before it looks at the table [C1], so R1's snapshot case expects that instead.
     */
    default boolean takesSnapshots() {
        return true;
    }

    // R1: "Table and index names as D3a on EVERY operation that takes one (describe, put, get, delete item,
    // update, delete table, snapshot, ...): an invalid name is a ValidationException, never ResourceNotFound."
    @Example
    default void r1_anInvalidTableNameIsAValidationErrorOnEveryOperation() {
        KitLock.run("r1", () -> RequestRuleChecks.r1(fixture(), takesSnapshots()));
    }

    // R2: "Attribute names: key attributes (table, GSI and LSI keys) 1-255 bytes of UTF-8; other names
    // 1-65,535 bytes. Account ids have one documented form, checked before use (they reach ARNs)."
    @Example
    default void r2_attributeNameLengthsAndAccountIds() {
        KitLock.run("r2", () -> RequestRuleChecks.r2(fixture()));
    }

    // R3: "An item that carries an attribute of any index key schema (GSI or LSI) must carry it with that
    // index's declared type and, for S and B, non-empty; otherwise ValidationException naming the index,
    // the attribute and the type. Items without the attribute are simply absent from the index."
    @Example
    default void r3_indexKeyAttributesHaveTheIndexsTypeAndAreNotEmpty() {
        KitLock.run("r3", () -> RequestRuleChecks.r3(fixture()));
    }

    // R4: "Strings are well-formed UTF-16 in names, S values, SS members and nested values: a lone surrogate
    // is refused naming the attribute. NUL (U+0000) is an ordinary character: stored, compared and returned
    // byte for byte on every backend."
    @Example
    default void r4_loneSurrogatesAreRefusedAndNulRoundTrips() {
        KitLock.run("r4", () -> RequestRuleChecks.r4(fixture()));
    }

    // R5: "Every backend accepts and refuses the same requests with the same reason, and returns what it
    // accepted equal to what was written (strings compared by code points)." Checked against the core's
    // own rules on generated items: every backend that agrees with them agrees with every other.
    @Example
    default void r5_generatedItemsAreAcceptedAndRefusedAsTheRulesSayAndReadBackEqual() {
        KitLock.run("r5", () -> GeneratedItemChecks.r5(fixture()));
    }

    // R6: "Messages name what was being done and the offending value; they never carry an internal state's
    // or record's toString, a Java class name, or a driver's text without that context."
    @Example
    default void r6_messagesNameTheValueAndCarryNoInternalText() {
        KitLock.run("r6", () -> RequestRuleChecks.r6(fixture()));
    }

    // V1: "The rules are DynamoDB's, complete": the reference corpus (DynamoReferenceCorpus), requests with
    // the verdict DynamoDB's developer guide gives them, each boundary from both sides, each citing its page.
    @Example
    default void v1_theReferenceCorpusGetsDynamoDbsVerdictOnEveryCase() {
        KitLock.run("v1", () -> ReferenceCorpusChecks.v1(fixture()));
    }

    // R7: "BatchWriteItem: 1-25 put or delete requests over one or more tables; two requests with the same
    // key in one batch are a ValidationException; each item is checked as PutItem checks it; applied in one
    // transaction where the backend has transactions, else what was not applied comes back as
    // UnprocessedItems; never a partial batch reported as complete."
    @Example
    default void r7_batchWriteItemAppliesWholeOrRefusesWhole() {
        KitLock.run("r7", () -> BatchWriteChecks.r7(fixture()));
    }

    // V2: "One statement of these rules (in `domain`), applied unchanged at every gate where an item enters
    // or leaves: PutItem, BatchWriteItem, a GSI backfill, ...". R3: "Items without the attribute are simply
    // absent from the index." A GSI added to tables of 999, 1,000, 1,001 and 2,500 items holds every item
    // that carries its key exactly once: the backfill's pages (1,000 rows) are neither cut short nor overlapped.
    @Example
    default void v2_aGsiAddedToALoadedTableHoldsEveryItemExactlyOnce() {
        KitLock.run("v2b", () -> BackfillChecks.v2(fixture()));
    }

    // D9: "keep every index in whatever build state it has". The state of a GSI made with its table: ACTIVE once
    // the table is, as DynamoDB's CreateTable and IndexStatus pages say (cited in BackfillChecks.d9).
    @Example
    default void d9_aGsiCreatedWithItsTableIsActiveOnceTheTableIs() {
        KitLock.run("d9g", () -> BackfillChecks.d9(fixture()));
    }

    // V3: "A request key is exact: GetItem, DeleteItem and a batch delete carry exactly the key attributes,
    // with the declared types; a missing, extra or mistyped attribute is a ValidationException ('the provided
    // key element does not match the schema'), never silently dropped." Run as DynamoDB's reference corpus:
    // each case with its documented verdict and page (RequestKeyCorpus).
    @Example
    default void v3_requestKeysAreExactAsDynamoDbDocumentsThem() {
        KitLock.run("v3", () -> RequestKeyCorpus.v3(fixture()));
    }
}
