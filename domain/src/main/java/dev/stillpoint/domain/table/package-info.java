/**
 * Table and index descriptions: what a catalog row says about a table [D9, S2], the requests that
 * create one, and the pure rules that shape a description for a snapshot. The lifecycle that moves
 * a table between states lives in {@code dev.stillpoint.domain.lifecycle}; here a status is a value.
 */
package dev.stillpoint.domain.table;
