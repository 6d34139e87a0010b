package dev.stillpoint.ports.in;

/**
 * Whether a snapshot's items carry the key their backend stores them under, apart from their JSON
 * ({@link StoredItem#storedKey()}). An export asks for them, to check each item names its own row's
 * key [E1]; any other reader leaves them out and does not pay for reading them (on SQLite, two more
 * column reads per row: BENCHMARKS.md, "SQLite stream and decoding").
 */
public enum StoredKeys {
    /** Items carry no stored key: {@link StoredItem#storedKey()} is empty. */
    OMITTED,
    /** Each item carries its stored key where the backend keeps one apart from the item. */
    INCLUDED
}
