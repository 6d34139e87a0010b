/**
 * The Cassandra adapter [C1, C2, D3a, D5, D10]: {@link dev.stillpoint.adapters.cassandra.CassandraStorage}
 * opens an engine on a cluster (DataStax java-driver-core 4.17) and offers the table operations;
 * snapshots are refused by design. Layout: a catalog keyspace {@code <prefix>_catalog} (tables
 * {@code schema_version}, {@code tables}, {@code accounts}) and one keyspace per account
 * {@code <prefix>_a_<account hash>} holding an items table per DynamoDB table and an index table
 * per secondary index, every name derived from random ids, never from user text.
 */
package dev.stillpoint.adapters.cassandra;
