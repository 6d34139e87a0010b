package dev.stillpoint.properties.kit;

/**
 * What an adapter supplies to run the conformance kit: how to start a fresh engine on a live
 * database, and what the backend declares. The kit owns every assertion.
 */
public interface ConformanceFixture {

    /** The backend's name, for messages. */
    String backendName();

    /**
     * A fresh engine with these settings. Engines started by one fixture share one database: a table
     * one engine creates, another sees (K6 creates a table on a second engine with a 1 h control-plane
     * delay and opens snapshots of the first engine's table there). Tables the kit creates have new
     * names, so runs may share a database too.
     */
    KitEngine start(KitSettings settings);

    /** What the backend declares. */
    Expectations expectations();

    /**
     * The names of every relation the backend's own catalog lists now, read from that catalog and not
     * from the adapter's: {@code sqlite_master} on SQLite, {@code pg_class} of the data database on
     * PostgreSQL, {@code system_schema.tables} on Cassandra, {@code listCollections} on MongoDB. The
     * kit diffs two listings to find a table's relations, and checks that DeleteTable leaves none [D5].
     */
    java.util.Set<String> relationsInCatalog();

    /**
     * Rewrites the attribute definitions in the table's catalog row, straight in the backend's
     * catalog (a test artifact: no production path does this). The kit uses it to make a table
     * unorderable, as an old or hand-edited catalog has it (a key attribute without a definition
     * [D1, Q3]), for the open of a K1 snapshot, and to restore the definitions before its writer runs
     * (puts and deletes refuse a key attribute without a definition).
     */
    void writeAttributeDefinitions(String accountId, String tableName,
                                   java.util.List<dev.stillpoint.domain.key.AttributeDefinition> definitions);

    /**
     * How many entries the index {@code indexName} of the table holds, counted straight in the
     * backend's storage (a test artifact: no production path reads an index's entries yet). The
     * request-rules kit checks with it that BatchWriteItem maintains index entries [R7]. Empty where the
     * fixture cannot count them; the check then says in its output that it did not look.
     */
    default java.util.OptionalLong indexEntries(String accountId, String tableName, String indexName) {
        return java.util.OptionalLong.empty();
    }
}
