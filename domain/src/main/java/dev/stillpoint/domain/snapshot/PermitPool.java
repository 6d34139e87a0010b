package dev.stillpoint.domain.snapshot;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.machine.Transition;
import java.util.EnumMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The bound on long readers per engine [D7, Q2]: at most {@code capacity} permits out at once, an
 * acquire over the bound refused at once (never queued), a release without a permit refused.
 *
 * @param capacity the most permits out at once
 * @param held     permits out, by holder kind
 */
public record PermitPool(int capacity, Map<HolderKind, Integer> held) {

    /**
     * Refuses a capacity below one, a negative count, or more permits held than the capacity; copies {@code held}.
     *
     * @param capacity the most permits out at once
     * @param held permits out, by holder kind
     */
    public PermitPool {
        if (capacity < 1) {
            throw StorageException.validation("permit capacity must be at least 1, got " + capacity);
        }
        EnumMap<HolderKind, Integer> copy = new EnumMap<>(HolderKind.class);
        held.forEach((kind, n) -> {
            if (n < 0) {
                throw StorageException.validation("held permits must not be negative, got " + n + " for " + kind);
            }
            if (n > 0) {
                copy.put(kind, n);
            }
        });
        held = Map.copyOf(copy);
        if (inUse(held) > capacity) {
            throw StorageException.validation("held permits " + held + " exceed capacity " + capacity);
        }
    }

    /** The events of the pool. */
    public enum Event {
        /** A holder asks for a permit. */
        ACQUIRE,
        /** A holder gives its permit back. */
        RELEASE
    }

    /** The pool's only effect: what happened to the permit asked about. */
    public enum Effect {
        /** The permit was handed out. */
        GRANTED,
        /** The permit came back to the pool. */
        RETURNED
    }

    /** Why the pool refused. */
    public enum Refusal {
        /** Every permit is out: the caller gets LimitExceeded at once. */
        EXHAUSTED,
        /** A release by a holder kind that holds none. */
        NOTHING_HELD
    }

    /**
     * An empty pool with {@code capacity} permits.
     *
     * @param capacity the most permits out at once
     * @return the pool with no permit out
     */
    public static PermitPool withCapacity(int capacity) {
        return new PermitPool(capacity, Map.of());
    }

    /**
     * Half the connection pool, at least one: the rest stays free for requests [D7].
     *
     * @param connectionPoolSize the size of the backend's connection pool
     * @return the pool sized for snapshot readers
     */
    public static PermitPool halfOf(int connectionPoolSize) {
        if (connectionPoolSize < 1) {
            throw StorageException.validation("connection pool size must be at least 1, got " + connectionPoolSize);
        }
        return withCapacity(Math.max(1, connectionPoolSize / 2));
    }

    /**
     * Permits out, over all holder kinds.
     *
     * @return the number of permits out
     */
    public int inUse() {
        return inUse(held);
    }

    /**
     * The answer of the pool to {@code event} by a holder of {@code kind}.
     *
     * @param event whether a permit is asked for or given back
     * @param kind the kind of holder asking
     * @return the pool after the event and what happened to the permit, or a refusal
     */
    public Transition<PermitPool, Effect, Refusal> apply(Event event, HolderKind kind) {
        int mine = held.getOrDefault(kind, 0);
        return switch (event) {
            case ACQUIRE -> inUse() >= capacity
                    ? Transition.refuse(Refusal.EXHAUSTED, exhaustedMessage())
                    : Transition.to(with(kind, mine + 1), Effect.GRANTED);
            case RELEASE -> mine == 0
                    ? Transition.refuse(Refusal.NOTHING_HELD, kind.plural() + " hold no permit")
                    : Transition.to(with(kind, mine - 1), Effect.RETURNED);
        };
    }

    /**
     * Names who holds the permits, so the refusal blames the right readers [Q2].
     *
     * @return the message of the LimitExceeded refusal, naming the holders
     */
    public String exhaustedMessage() {
        return "all " + capacity + " snapshot permits are in use (" + holders() + "); close an open snapshot or retry later";
    }

    /**
     * Who holds the permits out now, for a refusal's message [Q2].
     *
     * @return e.g. {@code 2 held by table snapshots, 1 held by backups}, or {@code none held}
     */
    public String holders() {
        if (held.isEmpty()) {
            return "none held";
        }
        return held.entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .map(e -> e.getValue() + " held by " + e.getKey().plural())
                .collect(Collectors.joining(", "));
    }

    private PermitPool with(HolderKind kind, int n) {
        EnumMap<HolderKind, Integer> next = new EnumMap<>(HolderKind.class);
        next.putAll(held);
        next.put(kind, n);
        return new PermitPool(capacity, next);
    }

    private static int inUse(Map<HolderKind, Integer> held) {
        return held.values().stream().mapToInt(Integer::intValue).sum();
    }
}
