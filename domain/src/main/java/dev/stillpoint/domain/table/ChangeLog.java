package dev.stillpoint.domain.table;

import dev.stillpoint.domain.error.StorageException;
import java.util.Arrays;

/**
 * Whether a table keeps a change log [I1], and what each record of it holds. Off by default; switched on
 * per table, as DynamoDB's point-in-time recovery is, and reported in the table's description the way
 * DynamoDB reports {@code PointInTimeRecoveryStatus} ({@link #status()}). A table that keeps one records
 * every committed put, overwrite and delete in the same transaction as the write, so an incremental
 * export between two snapshot markers [L5] gives exactly the changes of that window [I2]. The view names
 * are DynamoDB's incremental export view types (ExportViewType).
 */
public enum ChangeLog {
    /** No change log: writes cost what they cost without one. The default. */
    OFF,
    /** Each record holds the keys and, for a put or overwrite, the new image. */
    NEW_IMAGE,
    /** As {@link #NEW_IMAGE}, and each record also holds the image the write replaced or deleted. */
    NEW_AND_OLD_IMAGES;

    /**
     * Whether the table records its writes.
     *
     * @return false only for {@link #OFF}
     */
    public boolean enabled() {
        return this != OFF;
    }

    /**
     * Whether each record also holds the image its write replaced or deleted.
     *
     * @return true only for {@link #NEW_AND_OLD_IMAGES}
     */
    public boolean keepsOldImage() {
        return this == NEW_AND_OLD_IMAGES;
    }

    /**
     * The status a description reports, in the words DynamoDB uses for point-in-time recovery.
     *
     * @return {@code ENABLED} or {@code DISABLED}
     */
    public String status() {
        return enabled() ? "ENABLED" : "DISABLED";
    }

    /**
     * The setting named {@code viewType}, as CreateTable (or a stored catalog entry) gives it.
     *
     * @param viewType {@code NEW_IMAGE}, {@code NEW_AND_OLD_IMAGES} or {@code OFF}
     * @return the setting
     * @throws StorageException VALIDATION naming the value when it is none of these
     */
    public static ChangeLog named(String viewType) {
        for (ChangeLog c : values()) {
            if (c.name().equals(viewType)) {
                return c;
            }
        }
        throw StorageException.validation("change log view type '" + viewType + "' is not one of "
                + Arrays.toString(values()));
    }

    /**
     * Refuses a change log on a backend that cannot keep one [C1]: what every backend without the
     * capability answers at CreateTable, so a table never claims a log nothing writes.
     *
     * @param backend the backend's name, as errors name it
     * @param tableName the table being created
     * @throws StorageException UNSUPPORTED naming the backend and the table when the log is on
     */
    public void requireOffOn(String backend, String tableName) {
        if (enabled()) {
            throw StorageException.unsupported(backend, "table '" + tableName + "' asks for a change log ("
                    + name() + "), which this backend does not keep [I1]");
        }
    }
}
