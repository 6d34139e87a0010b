package dev.stillpoint.ports.out;

/**
 * Tells the control-plane poller to run a pass now [P8]: sent on every snapshot release, after a
 * deferred DeleteTable and after a CreateTable. Never blocks.
 */
@FunctionalInterface
public interface WakeSignal {

    /** Asks for a pass as soon as the poller can run one. */
    void wake();

    /** A signal nobody listens to, for engines run without a poller. */
    WakeSignal NONE = () -> { };
}
