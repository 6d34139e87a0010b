package dev.stillpoint.domain.key;

/** The three attribute types a key attribute may be declared with [D1]. */
public enum ScalarType {
    /** String: ordered by UTF-8 bytes. */
    S,
    /** Number: ordered by numeric value. */
    N,
    /** Binary: ordered by unsigned bytes. */
    B
}
