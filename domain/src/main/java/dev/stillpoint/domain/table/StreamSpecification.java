package dev.stillpoint.domain.table;

import dev.stillpoint.domain.error.StorageException;
import java.util.Optional;
import java.util.Set;

/**
 * Whether the table's change stream is on and what each record shows.
 *
 * @param viewType one of {@code KEYS_ONLY}, {@code NEW_IMAGE}, {@code OLD_IMAGE},
 *     {@code NEW_AND_OLD_IMAGES}; required when the stream is enabled
 */
public record StreamSpecification(boolean enabled, Optional<String> viewType) {
    /** The view types DynamoDB defines. */
    public static final Set<String> VIEW_TYPES = Set.of("KEYS_ONLY", "NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES");

    /**
     * Refuses an enabled stream without a view type, or a view type DynamoDB does not define.
     *
     * @param enabled whether the stream is on
     * @param viewType what each stream record shows; required when the stream is enabled
     */
    public StreamSpecification {
        viewType = TableChecks.orEmpty(viewType);
        if (enabled && viewType.isEmpty()) {
            throw StorageException.validation("an enabled stream needs a view type, one of " + VIEW_TYPES);
        }
        viewType.ifPresent(v -> {
            if (!VIEW_TYPES.contains(v)) {
                throw StorageException.validation("stream view type '" + v + "' is not one of " + VIEW_TYPES);
            }
        });
    }

    /**
     * A stream that is on, showing {@code viewType}.
     *
     * @param viewType what each stream record shows, one of {@link #VIEW_TYPES}
     * @return the stream's setting
     */
    public static StreamSpecification enabled(String viewType) {
        return new StreamSpecification(true, Optional.of(viewType));
    }

    /**
     * No stream.
     *
     * @return the setting of a table without a stream
     */
    public static StreamSpecification disabled() {
        return new StreamSpecification(false, Optional.empty());
    }
}
