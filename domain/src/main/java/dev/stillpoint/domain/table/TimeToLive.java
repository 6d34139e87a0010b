package dev.stillpoint.domain.table;

/** The table's time-to-live setting: which attribute holds the expiry time, and whether it is on. */
public record TimeToLive(String attributeName, boolean enabled) {
    public TimeToLive {
        TableChecks.requiredText(attributeName, "time-to-live attribute name");
    }
}
