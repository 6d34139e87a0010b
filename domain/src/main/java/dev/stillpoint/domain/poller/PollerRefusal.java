package dev.stillpoint.domain.poller;

/** The named reasons a poller event is refused. */
public enum PollerRefusal {
    /** Started twice. */
    ALREADY_STARTED,
    /** An event before the start. */
    NOT_STARTED,
    /** A pass result with no pass running. */
    NO_PASS_RUNNING,
    /** Any event after the stop. */
    STOPPED
}
