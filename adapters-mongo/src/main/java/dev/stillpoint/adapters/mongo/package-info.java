/**
 * The MongoDB adapter (mongodb-driver-sync): catalog collections {@code sp_tables} and
 * {@code sp_indexes}, one collection per table's items and per index, snapshots in a snapshot
 * session at one cluster time [M1-M4], DeleteTable inline. Entry point: {@link dev.stillpoint.adapters.mongo.MongoStorage}.
 */
package dev.stillpoint.adapters.mongo;
