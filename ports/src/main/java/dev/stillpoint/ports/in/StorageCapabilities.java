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
 */
public record StorageCapabilities(String backend, Optional<String> snapshotRefusal) {

    /**
     * Checks both parts are present.
     *
     * @param backend the backend's name
     * @param snapshotRefusal why snapshots are refused, or empty
     */
    public StorageCapabilities {
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(snapshotRefusal, "snapshotRefusal");
    }

    /**
     * A backend that offers everything.
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
