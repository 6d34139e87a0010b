package dev.stillpoint.ports.out;

/** The two places inside an open's read window where a test may hold it [K2]. */
public enum PausePoint {
    /** The definition was read; the items not yet. */
    AFTER_DEFINITION,
    /** The instant is pinned; the stream not yet handed out. */
    BEFORE_ITEMS
}
