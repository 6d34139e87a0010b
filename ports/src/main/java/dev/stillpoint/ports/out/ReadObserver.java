package dev.stillpoint.ports.out;

/**
 * A seam for watching a snapshot's reads: production passes {@link #NONE}; the conformance kit's
 * test artifact supplies the pauses and the round-trip counter [K8].
 */
public interface ReadObserver {

    /**
     * Called at each pause point, between the open's read steps and inside the read; may block.
     *
     * @param point the pause point reached
     */
    default void atPause(PausePoint point) {
    }

    /** Called once per round trip that fetches items from the server (a page query, a FETCH, a getMore). */
    default void roundTrip() {
    }

    /**
     * Called once per page a snapshot stream fetched, before its items are handed out, so a test can
     * check every page against the budget [S7] on any backend. Called by the shared lease, not by adapters.
     *
     * @param page the page fetched
     */
    default void pageRead(Page page) {
    }

    /** Observes nothing. */
    ReadObserver NONE = new ReadObserver() { };
}
