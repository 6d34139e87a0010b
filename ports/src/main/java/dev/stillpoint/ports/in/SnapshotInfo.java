package dev.stillpoint.ports.in;

/**
 * What fixes a snapshot's instant on its backend [S1, P3, M1]: the kind of marker and its text,
 * e.g. {@code postgresql-snapshot} and the {@code pg_current_snapshot()} text.
 */
public record SnapshotInfo(String kind, String marker) {
    /**
     * Refuses a missing or blank kind and a missing marker.
     *
     * @param kind the kind of marker, such as {@code postgresql-snapshot}
     * @param marker the marker's text; may be empty
     */
    public SnapshotInfo {
        if (kind == null || kind.isBlank()) {
            throw new IllegalArgumentException("snapshot kind is required");
        }
        if (marker == null) {
            throw new IllegalArgumentException("snapshot marker is required (may be empty)");
        }
    }
}
