package dev.stillpoint.ports.out;

/** The two places between an open's read steps where a test may hold it, inside the read [K2]. */
public enum PausePoint {
    /** The definition was read; the items not yet. */
    AFTER_DEFINITION,
    /** The instant is pinned; the stream not yet handed out. */
    BEFORE_ITEMS
}
