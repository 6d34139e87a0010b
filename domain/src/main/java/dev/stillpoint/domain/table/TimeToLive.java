package dev.stillpoint.domain.table;

/** The table's time-to-live setting: which attribute holds the expiry time, and whether it is on. */
public record TimeToLive(String attributeName, boolean enabled) {
    /**
     * Refuses a missing or empty attribute name.
     *
     * @param attributeName the attribute holding the expiry time
     * @param enabled whether expiry is on
     */
    public TimeToLive {
        TableChecks.requiredText(attributeName, "time-to-live attribute name");
    }
}
