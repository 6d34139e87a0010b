package dev.stillpoint.domain.table;

import java.time.Instant;

/**
 * The billing or throughput mode and when it last changed. The API layer sets it on a response;
 * a snapshot clears it, since a restored table gets its own [S2].
 */
public record ThroughputModeSummary(String mode, Instant lastUpdate) {
    /**
     * Refuses a missing or empty mode or a missing update time.
     *
     * @param mode the billing or throughput mode's name
     * @param lastUpdate when the mode last changed
     */
    public ThroughputModeSummary {
        TableChecks.requiredText(mode, "throughput mode");
        TableChecks.required(lastUpdate, "throughput mode last update time");
    }
}
