package dev.stillpoint.domain.key;

/** The three attribute types a key attribute may be declared with [D1]. */
public enum ScalarType {
    S, N, B
}
