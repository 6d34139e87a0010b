package dev.stillpoint.ports.in;

import dev.stillpoint.domain.error.StorageException;
import java.util.Objects;
import java.util.Optional;

/**
 * What a backend can do beyond what every backend does, asked of the backend itself instead of
 * recognised by class name: a caller (the CLI's export, an embedding server) refuses early, with the
 * backend's own reason, what the backend would refuse anyway.
 *
 * @param backend the backend's name, as errors name it
 * @param snapshotRefusal why consistent table snapshots are refused [C1]; empty where they are offered
 * @param changeLogRefusal why a change log and incremental exports are refused [I1]; empty where offered
 * @param segments how a segmented snapshot is served [B2]: not at all, from one read, or across connections
 */
public record StorageCapabilities(String backend, Optional<String> snapshotRefusal, Optional<String> changeLogRefusal,
                                  SegmentSharing segments) {

    /** What a backend that has not written the change log yet says [I1]. */
    public static final String NO_CHANGE_LOG_YET = "this backend keeps no change log yet, so it has no incremental"
            + " export [I1]";

    /**
     * Checks every part is present.
     *
     * @param backend the backend's name
     * @param snapshotRefusal why snapshots are refused, or empty
     * @param changeLogRefusal why a change log is refused, or empty
     * @param segments how a segmented snapshot is served
     */
    public StorageCapabilities {
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(snapshotRefusal, "snapshotRefusal");
        Objects.requireNonNull(changeLogRefusal, "changeLogRefusal");
        Objects.requireNonNull(segments, "segments");
        if (snapshotRefusal.isPresent() && segments.offered()) {
            throw new IllegalArgumentException(backend + " refuses snapshots, so it has no segmented ones either");
        }
    }

    /**
     * Capabilities without segmented snapshots [B2].
     *
     * @param backend the backend's name
     * @param snapshotRefusal why snapshots are refused, or empty
     * @param changeLogRefusal why a change log is refused, or empty
     */
    public StorageCapabilities(String backend, Optional<String> snapshotRefusal, Optional<String> changeLogRefusal) {
        this(backend, snapshotRefusal, changeLogRefusal, SegmentSharing.NONE);
    }

    /**
     * Capabilities without a change log [I1], as every backend's were before the log existed.
     *
     * @param backend the backend's name
     * @param snapshotRefusal why snapshots are refused, or empty
     */
    public StorageCapabilities(String backend, Optional<String> snapshotRefusal) {
        this(backend, snapshotRefusal, Optional.of(snapshotRefusal.map(why -> "no read fixes an instant here, so no"
                + " window between two of them either [I1]: " + why).orElse(NO_CHANGE_LOG_YET)));
    }

    /**
     * These capabilities with the change log offered [I1].
     *
     * @return the capabilities of a backend that keeps change logs
     */
    public StorageCapabilities withChangeLog() {
        return new StorageCapabilities(backend, snapshotRefusal, Optional.empty(), segments);
    }

    /**
     * These capabilities with segmented snapshots served as {@code sharing} says [B2].
     *
     * @param sharing how the backend serves the segments
     * @return the capabilities with segments
     */
    public StorageCapabilities withSegments(SegmentSharing sharing) {
        return new StorageCapabilities(backend, snapshotRefusal, changeLogRefusal, sharing);
    }

    /**
     * Whether a table on this backend can keep a change log, and its changes be exported between two
     * snapshot markers [I1, I2].
     *
     * @return whether the change log is offered
     */
    public boolean changeLog() {
        return changeLogRefusal.isEmpty();
    }

    /**
     * Throws the backend's own Unsupported refusal when it keeps no change log.
     *
     * @throws StorageException UNSUPPORTED, naming the backend and why
     */
    public void requireChangeLog() {
        changeLogRefusal.ifPresent(why -> {
            throw StorageException.unsupported(backend, why);
        });
    }

    /**
     * A backend that offers snapshots (the change log only where {@link #withChangeLog()} adds it).
     *
     * @param backend the backend's name
     * @return its capabilities
     */
    public static StorageCapabilities full(String backend) {
        return new StorageCapabilities(backend, Optional.empty());
    }

    /**
     * A backend without consistent table snapshots.
     *
     * @param backend the backend's name
     * @param why the sentence its Unsupported error carries
     * @return its capabilities
     */
    public static StorageCapabilities withoutSnapshots(String backend, String why) {
        return new StorageCapabilities(backend, Optional.of(why));
    }

    /**
     * Whether {@link SnapshotEngine#openTableSnapshot} can succeed on this backend.
     *
     * @return whether snapshots are offered
     */
    public boolean snapshots() {
        return snapshotRefusal.isEmpty();
    }

    /**
     * Throws the backend's own Unsupported refusal when it offers no snapshots.
     *
     * @throws StorageException UNSUPPORTED, naming the backend and why
     */
    public void requireSnapshots() {
        snapshotRefusal.ifPresent(why -> {
            throw StorageException.unsupported(backend, why);
        });
    }
}
