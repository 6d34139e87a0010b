package dev.stillpoint.properties.kit;

import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.ports.out.ReadObserver;
import java.time.Duration;

/**
 * What the kit asks of a fresh engine: the page budget (the page-size knob), the observer that
 * carries the pauses and the round-trip counter, and the control-plane delay.
 */
public record KitSettings(PageBudget pageBudget, ReadObserver observer, Duration controlPlaneDelay) {
}
