package dev.stillpoint.ports.in;

/**
 * What fixes a snapshot's instant on its backend [S1, P3, M1]: the kind of marker and its text,
 * e.g. {@code postgresql-snapshot} and the {@code pg_current_snapshot()} text.
 */
public record SnapshotInfo(String kind, String marker) {
    public SnapshotInfo {
        if (kind == null || kind.isBlank()) {
            throw new IllegalArgumentException("snapshot kind is required");
        }
        if (marker == null) {
            throw new IllegalArgumentException("snapshot marker is required (may be empty)");
        }
    }
}
