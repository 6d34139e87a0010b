/**
 * Stillpoint on PostgreSQL (jOOQ), issue 4: {@link dev.stillpoint.adapters.postgres.PostgresStorage}
 * opens an engine on one database (shared layout) or on a catalog and a data database (separate
 * layout), applies the catalog migrations, and offers the driving ports.
 */
package dev.stillpoint.adapters.postgres;
