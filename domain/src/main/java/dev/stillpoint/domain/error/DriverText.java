package dev.stillpoint.domain.error;

/**
 * What a driver or server said, as a {@link StorageException}'s message may quote it [R6]: its first line,
 * bounded, never a stack trace or a multi-line server report. One rule for every adapter, so a reader of the
 * messages sees the same shape whichever backend failed.
 */
public final class DriverText {

    /** The longest quoted text; longer text is cut and ends with "...". */
    public static final int MAX_CHARS = 500;

    private DriverText() {
    }

    /**
     * The first line of {@code message}, stripped, at most {@link #MAX_CHARS} characters.
     *
     * @param message what the driver said, possibly null or blank
     * @return its first line, or {@code "(no message)"} when it said nothing
     */
    public static String firstLine(String message) {
        if (message == null || message.isBlank()) {
            return "(no message)";
        }
        String line = message.strip();
        int nl = line.indexOf('\n');
        if (nl >= 0) {
            line = line.substring(0, nl).strip();
        }
        return line.length() <= MAX_CHARS ? line : line.substring(0, MAX_CHARS) + "...";
    }
}
