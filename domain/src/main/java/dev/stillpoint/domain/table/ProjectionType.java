package dev.stillpoint.domain.table;

/** Which attributes an index copies from the base item. */
public enum ProjectionType {
    ALL, KEYS_ONLY, INCLUDE
}
