/**
 * The Cassandra adapter: issue 5; a shell until that issue lands.
 */
package dev.stillpoint.adapters.cassandra;
