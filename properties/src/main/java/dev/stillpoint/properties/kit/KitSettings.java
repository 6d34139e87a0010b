package dev.stillpoint.properties.kit;

import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.ports.out.ReadObserver;
import java.time.Duration;

/**
 * What the kit asks of a fresh engine: the page budget (the page-size knob), the observer that
 * carries the pauses and the round-trip counter, the control-plane delay, and the snapshot idle limit
 * [L1] a fixture must give the engine it starts.
 *
 * @param pageBudget        rows and bytes per snapshot page
 * @param observer          the pauses and the round-trip counter
 * @param controlPlaneDelay the control-plane delay DeleteTable decides with
 * @param snapshotIdleLimit how long an open stream may go without a page fetch; the kit's rules hold a
 *                          stream open while their writers run, and a writer's speed is the machine's
 */
public record KitSettings(PageBudget pageBudget, ReadObserver observer, Duration controlPlaneDelay,
                          Duration snapshotIdleLimit) {

    /**
     * The kit's idle limit: ten minutes. A saturated machine (a load of 30 on 2 cores) once kept a K1
     * writer busy past the default 60 s, and the stream it was about to drain expired; the idle limit has
     * its own tests on each backend, so the kit's rules only need it out of their way.
     */
    public static final Duration KIT_SNAPSHOT_IDLE_LIMIT = Duration.ofMinutes(10);

    /**
     * Settings with the kit's snapshot idle limit.
     *
     * @param pageBudget        rows and bytes per snapshot page
     * @param observer          the pauses and the round-trip counter
     * @param controlPlaneDelay the control-plane delay
     */
    public KitSettings(PageBudget pageBudget, ReadObserver observer, Duration controlPlaneDelay) {
        this(pageBudget, observer, controlPlaneDelay, KIT_SNAPSHOT_IDLE_LIMIT);
    }
}
