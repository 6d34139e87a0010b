package dev.stillpoint.adapters.cassandra;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.stillpoint.domain.error.StorageException;
import java.util.List;
import java.util.TreeSet;

/**
 * The catalog keyspace's schema as numbered steps the adapter applies itself, recorded in
 * {@code <prefix>_catalog.schema_version}. Opening an engine creates the keyspace and the version
 * table if needed, then applies every step not yet recorded, in order. Every statement is
 * idempotent ({@code IF NOT EXISTS}) and each step is recorded with a lightweight transaction, so
 * engines opening at once apply the same steps without harm and record each exactly once. A
 * catalog at a version newer than this adapter knows is refused (an older adapter must not write
 * to a catalog it does not understand).
 */
final class CatalogSchema {

    /** One numbered step: what it creates and the statements that create it. */
    record Step(int version, String description, List<String> statements) {
    }

    private CatalogSchema() {
    }

    /** The steps, in order, for the catalog keyspace {@code ks}. */
    static List<Step> steps(String ks) {
        return List.of(
                new Step(1, "tables: one row per DynamoDB table (definition as DynamoDB JSON, state, revision)", List.of(
                        "CREATE TABLE IF NOT EXISTS " + ks + ".tables ("
                                + "account_id text, table_name text, table_id text, table_arn text, status text, "
                                + "created_at timestamp, data_keyspace text, "
                                + "partition_key_name text, sort_key_name text, "
                                + "attribute_definitions text, indexes text, stream_specification text, "
                                + "revision bigint, "
                                + "PRIMARY KEY ((account_id), table_name))")),
                new Step(2, "accounts: the data keyspace of each account", List.of(
                        "CREATE TABLE IF NOT EXISTS " + ks + ".accounts ("
                                + "account_id text PRIMARY KEY, data_keyspace text, created_at timestamp)")),
                new Step(3, "table_statistics: ItemCount and TableSizeBytes of each table, by table id", List.of(
                        "CREATE TABLE IF NOT EXISTS " + ks + ".table_statistics ("
                                + "table_id text PRIMARY KEY, item_count bigint, size_bytes bigint)")),
                new Step(4, "restores: the restore of each restored table, by table id (summary and liveness stamp)", List.of(
                        "CREATE TABLE IF NOT EXISTS " + ks + ".restores ("
                                + "table_id text PRIMARY KEY, account_id text, table_name text, source_table_arn text, "
                                + "restore_date_time timestamp, in_progress boolean, alive_until timestamp)")),
                new Step(5, "tables.time_to_live: the time-to-live setting a restore carries [E4], as DynamoDB JSON", List.of(
                        "ALTER TABLE " + ks + ".tables ADD IF NOT EXISTS time_to_live text")),
                new Step(6, "table_statistics: ItemCount and IndexSizeBytes of each secondary index, by index name", List.of(
                        "ALTER TABLE " + ks + ".table_statistics ADD IF NOT EXISTS index_item_counts map<text, bigint>",
                        "ALTER TABLE " + ks + ".table_statistics ADD IF NOT EXISTS index_size_bytes map<text, bigint>")));
    }

    /** The newest version this adapter knows. */
    static int latestVersion() {
        return steps("x").get(steps("x").size() - 1).version();
    }

    /** Creates the catalog keyspace if needed and applies every step not yet recorded. */
    static void apply(Cql cql, CassandraConfig config) {
        String ks = config.catalogKeyspace();
        cql.ddl("creating the catalog keyspace '" + ks + "'", "CREATE KEYSPACE IF NOT EXISTS " + ks
                + " WITH replication = " + replication(config) + " AND durable_writes = true");
        cql.ddl("creating the catalog's schema_version table", "CREATE TABLE IF NOT EXISTS " + ks + ".schema_version ("
                + "version int PRIMARY KEY, description text, applied_at timestamp)");
        TreeSet<Integer> applied = appliedVersions(cql, ks);
        if (!applied.isEmpty() && applied.last() > latestVersion()) {
            throw StorageException.internal("the catalog keyspace '" + ks + "' is at schema version " + applied.last()
                    + ", newer than this adapter's " + latestVersion() + "; upgrade the adapter", null);
        }
        for (Step step : steps(ks)) {
            if (applied.contains(step.version())) {
                continue;
            }
            for (String statement : step.statements()) {
                cql.ddl("applying catalog schema step " + step.version(), statement);
            }
            cql.run("recording catalog schema step " + step.version(),
                    "INSERT INTO " + ks + ".schema_version (version, description, applied_at) VALUES (?, ?, ?) IF NOT EXISTS",
                    step.version(), step.description(), config.time().now());
        }
    }

    /** The versions recorded in {@code ks.schema_version}. */
    static TreeSet<Integer> appliedVersions(Cql cql, String ks) {
        TreeSet<Integer> versions = new TreeSet<>();
        for (Row row : cql.read("reading the catalog schema version", "SELECT version FROM " + ks + ".schema_version")) {
            versions.add(row.getInt("version"));
        }
        return versions;
    }

    /** The replication of every keyspace Stillpoint creates: the local datacenter, the configured factor. */
    static String replication(CassandraConfig config) {
        return "{'class': 'NetworkTopologyStrategy', '" + config.localDatacenter() + "': " + config.replicationFactor() + "}";
    }
}
