package dev.stillpoint.backup;

import dev.stillpoint.ports.in.SnapshotInfo;

/**
 * Told as an export runs; a progress bar or a demo's pacing listens. {@link #opened} and {@link #finished}
 * come on the exporting thread, {@link #exported} on the export's writing thread (one thread, in order).
 */
public interface ExportListener {
    /** Listens to nothing. */
    ExportListener NONE = items -> { };

    /**
     * The snapshot is open (its instant fixed); items follow.
     *
     * @param info what fixes the snapshot's instant
     */
    default void opened(SnapshotInfo info) {
    }

    /**
     * The snapshot's exact item count, when its backend counted it at the snapshot's instant (after
     * {@link #opened}, before the first item); not told when the backend does not count.
     *
     * @param items the items the export will write
     */
    default void counted(long items) {
    }

    /**
     * One more item written.
     *
     * @param items items written so far
     */
    void exported(long items);

    /**
     * Every item is written; the manifest follows.
     *
     * @param items items written in all
     */
    default void finished(long items) {
    }

    /**
     * Both listeners, {@code first} told first.
     *
     * @param first told first
     * @param second told second
     * @return one listener telling both
     */
    static ExportListener both(ExportListener first, ExportListener second) {
        if (second == NONE) {
            return first;
        }
        return new ExportListener() {
            @Override
            public void opened(SnapshotInfo info) {
                first.opened(info);
                second.opened(info);
            }

            @Override
            public void counted(long items) {
                first.counted(items);
                second.counted(items);
            }

            @Override
            public void exported(long items) {
                first.exported(items);
                second.exported(items);
            }

            @Override
            public void finished(long items) {
                first.finished(items);
                second.finished(items);
            }
        };
    }
}
