package dev.stillpoint.core.snapshot;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.machine.Transition;
import dev.stillpoint.domain.snapshot.HolderKind;
import dev.stillpoint.domain.snapshot.PermitPool;

/**
 * The engine's permit pool, shared by every long reader of one engine [D7, Q2]: a thread-safe
 * holder of the pure {@link PermitPool}. An acquire over the bound fails at once with
 * LimitExceeded naming who holds the permits.
 */
public final class PermitLedger {

    private PermitPool pool;

    /**
     * A ledger starting from {@code pool}.
     *
     * @param pool the permit pool, usually empty, whose capacity bounds the long readers [D7]
     */
    public PermitLedger(PermitPool pool) {
        this.pool = pool;
    }

    /**
     * Takes a permit for a holder of {@code kind}, or throws LimitExceeded without waiting.
     *
     * @param kind the kind of holder asking
     */
    public synchronized void acquire(HolderKind kind) {
        Transition<PermitPool, PermitPool.Effect, PermitPool.Refusal> t = pool.apply(PermitPool.Event.ACQUIRE, kind);
        if (t instanceof Transition.Refused<PermitPool, PermitPool.Effect, PermitPool.Refusal> refused) {
            throw StorageException.limitExceeded(refused.detail());
        }
        pool = t.nextOr(pool);
    }

    /**
     * Takes {@code count} permits for holders of {@code kind} at once, or none: throws LimitExceeded
     * naming the count, the free permits and who holds the others without waiting when fewer are free
     * [B2]. A segmented snapshot never holds N-1 permits with its last segment refused. A count above the
     * capacity is said to be one no wait can grant ({@code export -j N} with N above the permits [B3]).
     *
     * @param kind the kind of holder asking
     * @param count how many permits, at least 1
     */
    public synchronized void acquire(HolderKind kind, int count) {
        int free = pool.capacity() - pool.inUse();
        if (count > free) {
            // Refused before any is taken, naming the holders of now: not a pool part-way through the count,
            // which would blame holders that do not exist.
            throw StorageException.limitExceeded("a snapshot of " + count + " segments needs " + count + " permits, "
                    + free + " are free (" + pool.holders() + ")" + (count > pool.capacity()
                    ? ": this engine has " + pool.capacity() + " snapshot permits in all, so it never opens more than "
                            + pool.capacity() + " segments at once; ask for at most " + pool.capacity()
                    : "; close an open snapshot or retry later"));
        }
        PermitPool next = pool;
        for (int i = 0; i < count; i++) {
            Transition<PermitPool, PermitPool.Effect, PermitPool.Refusal> t = next.apply(PermitPool.Event.ACQUIRE, kind);
            if (t instanceof Transition.Refused<PermitPool, PermitPool.Effect, PermitPool.Refusal> refused) {
                // The check above leaves no refusal here; were there one, nothing is taken (the pool is replaced at the end).
                throw StorageException.internal("a permit refused after " + count + " were found free: "
                        + refused.detail(), null);
            }
            next = t.nextOr(next);
        }
        pool = next;
    }

    /**
     * Gives back a permit held by a holder of {@code kind}; a release without one is an internal error.
     *
     * @param kind the kind of holder giving the permit back
     */
    public synchronized void release(HolderKind kind) {
        Transition<PermitPool, PermitPool.Effect, PermitPool.Refusal> t = pool.apply(PermitPool.Event.RELEASE, kind);
        if (t instanceof Transition.Refused<PermitPool, PermitPool.Effect, PermitPool.Refusal> refused) {
            throw StorageException.internal("permit released twice: " + refused.detail(), null);
        }
        pool = t.nextOr(pool);
    }

    /**
     * Permits out now.
     *
     * @return the number of permits out
     */
    public synchronized int inUse() {
        return pool.inUse();
    }

    /**
     * Permits out now to holders of {@code kind}.
     *
     * @param kind the kind of holder
     * @return the number of permits that kind holds
     */
    public synchronized int held(HolderKind kind) {
        return pool.held().getOrDefault(kind, 0);
    }

    /**
     * The most permits out at once.
     *
     * @return the pool's capacity
     */
    public synchronized int capacity() {
        return pool.capacity();
    }
}
