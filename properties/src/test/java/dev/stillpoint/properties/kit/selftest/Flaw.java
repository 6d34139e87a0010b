package dev.stillpoint.properties.kit.selftest;

/**
 * Deliberate breaks of the reference adapter [K7]: each is a way a real adapter has gone wrong
 * (the seed's mutants), and the kit must reject each on the assertion that targets it.
 */
public enum Flaw {
    /** A correct adapter: the kit must pass. */
    NONE,
    /** Each page reads the live table after the last key (a fresh transaction per page, READ COMMITTED): K1. */
    PAGES_FROM_THE_LIVE_TABLE,
    /** The items' instant is fixed at pin(), after the AFTER_DEFINITION pause: the pause is outside the read window: K2. */
    ITEMS_PINNED_AFTER_THE_DEFINITION_PAUSE,
    /** Pages come in reverse key order while keyOrdered is declared (a collation or signedness bug): K5. */
    UNSORTED_PAGES_DECLARED_ORDERED,
    /** The open builds its description from a second code path that loses the restore summary: K3. */
    DESCRIPTION_WITHOUT_RESTORE_SUMMARY,
    /** A segmented snapshot's segments after the first read the live table at their first fetch (no shared instant): B2. */
    SEGMENTS_EACH_AT_ITS_OWN_INSTANT,
    /** Every page is read during the open (the in-memory copy): the stream never fetches after a commit: K1. */
    EVERY_PAGE_READ_DURING_THE_OPEN,
    /** UpdateTable takes 2.5 s, so the 2 s timeout, not W2, resumes the held open: K2's branch assertion. */
    SLOW_UPDATE_TABLE,
    /** Refusing a table that is not ACTIVE keeps the open's permit: K6. */
    PERMIT_KEPT_WHEN_REFUSING_A_NON_ACTIVE_TABLE,
    /** Declares 34-digit numbers (Decimal128) but accepts a 38-digit N at the put instead of refusing it: K5. */
    ACCEPTS_38_DIGIT_NUMBERS_DECLARING_34,
    /** DescribeTable looks the name up without checking it: an invalid name is ResourceNotFound: R1. */
    TABLE_NAMES_UNCHECKED,
    /** CreateTable and ListTables skip the core's checks of key attribute names and account ids: R2. */
    KEY_NAMES_AND_ACCOUNTS_UNCHECKED,
    /** PutItem checks the table key only, so an index key of the wrong type or empty is stored: R3. */
    INDEX_KEYS_UNCHECKED,
    /** Strings are encoded as the JDK's UTF-8 encoder does, a lone surrogate becoming '?': R4, R5. */
    LONE_SURROGATES_STORED_AS_QUESTION_MARKS,
    /** NUL is dropped from every string but the key on the way in (a text column that cannot hold it): R4, R5. */
    NUL_DROPPED,
    /** A refusal's message carries an internal state's toString: R6. */
    INTERNAL_STATE_IN_MESSAGES,
    /**
     * BatchWriteItem applied one request at a time through PutItem and DeleteItem: a bad request after
     * good ones leaves the good ones applied, and a duplicate key is written twice: R7.
     */
    BATCH_APPLIED_ONE_BY_ONE,
    /** PutItem checks an item with its empty sets (at any depth) taken as holding one member, and stores it as given: V1. */
    EMPTY_SETS_ACCEPTED,
    /**
     * GetItem, DeleteItem and a batch delete keep only the key schema's attributes of the request's key
     * (what {@code Key.of(Item, KeySchema)} did), so an extra attribute is silently dropped: V3.
     */
    EXTRA_KEY_ATTRIBUTES_DROPPED
}
