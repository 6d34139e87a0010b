package dev.stillpoint.core;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.request.ItemWrite;
import dev.stillpoint.ports.out.BulkLoad;
import java.util.List;

/**
 * An adapter's bulk load [B1] as the core drives it: the calls one at a time (a close waits for the write in
 * progress), and nothing but a close once the load finished, broke or closed. The order is the core's to keep,
 * so every backend's load is only its storage: it never tracks its own life.
 */
final class GuardedBulkLoad implements BulkLoad {

    /** Where a load is in its life. */
    enum State {
        /** Taking writes. */
        OPEN,
        /** Made durable by {@link #finish()}: only a close may follow. */
        FINISHED,
        /** A write or the finish failed: the restore is abandoned, only a close may follow. */
        BROKEN,
        /** Closed: whatever was not made durable is discarded. */
        CLOSED
    }

    private final BulkLoad load;
    private final String tableName;
    // Guarded by this.
    private State state = State.OPEN;
    private RuntimeException failure;

    GuardedBulkLoad(BulkLoad load, String tableName) {
        this.load = load;
        this.tableName = tableName;
    }

    @Override
    public synchronized void write(List<ItemWrite> items) {
        requireOpen("write to");
        try {
            load.write(items);
        } catch (RuntimeException e) {
            broke(e);
            throw e;
        }
    }

    @Override
    public synchronized void finish() {
        requireOpen("finish");
        try {
            load.finish();
        } catch (RuntimeException e) {
            broke(e);
            throw e;
        }
        state = State.FINISHED;
    }

    /** Closes the adapter's load once, whatever the state; later closes do nothing. */
    @Override
    public synchronized void close() {
        if (state != State.CLOSED) {
            state = State.CLOSED;
            load.close();
        }
    }

    synchronized State state() {
        return state;
    }

    private void broke(RuntimeException e) {
        state = State.BROKEN;
        failure = e;
    }

    private void requireOpen(String doing) {
        String what = "cannot " + doing + " the bulk load of the restore into table '" + tableName + "': ";
        switch (state) {
            case OPEN -> {
            }
            case FINISHED -> throw StorageException.validation(what + "it is finished");
            case CLOSED -> throw StorageException.validation(what + "it is closed");
            case BROKEN -> throw new StorageException(failure instanceof StorageException s ? s.reason()
                    : ErrorReason.INTERNAL, what + "it failed earlier (" + failure.getMessage() + ")", failure);
        }
    }
}
