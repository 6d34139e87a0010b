package dev.stillpoint.domain.poller;

import java.time.Instant;

/**
 * Where the control-plane poller stands [D8]: waiting idle (long sweep) or active (about once a
 * second), running a pass (perhaps with a wake that arrived meanwhile), or stopped.
 */
public sealed interface PollerState {

    /**
     * The state's kind, so transitions can switch exhaustively over it.
     *
     * @return the kind of this state
     */
    Kind kind();

    /** The kinds of poller state. */
    enum Kind {
        /** Not yet started: startup recovery comes first. */
        STARTING,
        /** Waiting for a wake or the long sweep. */
        IDLE,
        /** Waiting for a wake or the short timer, with a drop deferred. */
        ACTIVE,
        /** Running a pass. */
        RUNNING,
        /** Running a pass, with a wake that arrived meanwhile. */
        RUNNING_WOKEN,
        /** Shut down. */
        STOPPED
    }

    /** Not yet started: startup recovery comes first. */
    record Starting() implements PollerState {
        public Kind kind() { return Kind.STARTING; }
    }

    /** Nothing deferred: waits for a wake or its sweep at {@code wakeAt}. */
    record Idle(Instant wakeAt) implements PollerState {
        public Kind kind() { return Kind.IDLE; }
    }

    /** A drop is deferred: waits for a wake or its timer at {@code wakeAt}, about a second away. */
    record Active(Instant wakeAt) implements PollerState {
        public Kind kind() { return Kind.ACTIVE; }
    }

    /** A pass is running. */
    record Running() implements PollerState {
        public Kind kind() { return Kind.RUNNING; }
    }

    /** A pass is running and a wake arrived meanwhile: another pass follows at once. */
    record RunningWoken() implements PollerState {
        public Kind kind() { return Kind.RUNNING_WOKEN; }
    }

    /** Shut down. Terminal. */
    record Stopped() implements PollerState {
        public Kind kind() { return Kind.STOPPED; }
    }
}
