package dev.stillpoint.properties.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.machine.Transition;
import dev.stillpoint.domain.snapshot.HolderKind;
import dev.stillpoint.domain.snapshot.PermitPool;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.Tuple.Tuple2;
import net.jqwik.api.constraints.IntRange;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/** The permit pool alone [D7, Q2]. */
class PermitPoolProperties {

    // D7: the bound is half the connection pool, at least one.
    @Property
    void d7_capacityIsHalfThePool(@ForAll @IntRange(min = 1, max = 1000) int poolSize) {
        assertThat(PermitPool.halfOf(poolSize).capacity()).isEqualTo(Math.max(1, poolSize / 2));
    }

    // D7: an acquire is granted exactly when a permit is free; a release without a permit is refused.
    @Property
    void d7_grantExactlyWhenFree(@ForAll @IntRange(min = 1, max = 5) int capacity,
                                 @ForAll("operations") List<Tuple2<PermitPool.Event, HolderKind>> operations) {
        PermitPool pool = PermitPool.withCapacity(capacity);
        for (Tuple2<PermitPool.Event, HolderKind> op : operations) {
            int before = pool.inUse();
            int mine = pool.held().getOrDefault(op.get2(), 0);
            Transition<PermitPool, PermitPool.Effect, PermitPool.Refusal> t = pool.apply(op.get1(), op.get2());
            boolean allowed = op.get1() == PermitPool.Event.ACQUIRE ? before < capacity : mine > 0;
            assertThat(t instanceof Transition.Moved).isEqualTo(allowed);
            pool = t.nextOr(pool);
            assertThat(pool.inUse()).isBetween(0, capacity);
        }
    }

    // Q2: when snapshots hold the slots, the refusal says so; when backups do, it says that.
    @Example
    void q2_refusalNamesWhoHoldsTheSlots() {
        PermitPool pool = PermitPool.withCapacity(2);
        pool = pool.apply(PermitPool.Event.ACQUIRE, HolderKind.TABLE_SNAPSHOT).nextOr(pool);
        pool = pool.apply(PermitPool.Event.ACQUIRE, HolderKind.BACKUP).nextOr(pool);
        Transition<PermitPool, PermitPool.Effect, PermitPool.Refusal> t = pool.apply(PermitPool.Event.ACQUIRE, HolderKind.BACKUP);
        assertThat(t).isInstanceOfSatisfying(Transition.Refused.class, r ->
                assertThat(r.detail()).contains("1 held by table snapshots").contains("1 held by backups"));
    }

    // [D7, Q2] a kind that holds no permit is not listed: after its last release the pool is the pool
    // it would be had that kind never held one, and a refusal names only the kinds that hold permits.
    @Property
    void q2_kindsHoldingNoPermitAreNotListed(@ForAll @IntRange(min = 1, max = 5) int capacity,
                                             @ForAll("operations") List<Tuple2<PermitPool.Event, HolderKind>> operations) {
        PermitPool pool = PermitPool.withCapacity(capacity);
        for (Tuple2<PermitPool.Event, HolderKind> op : operations) {
            pool = pool.apply(op.get1(), op.get2()).nextOr(pool);
            assertThat(pool.held().values()).allSatisfy(n -> assertThat(n).isPositive());
            assertThat(pool).isEqualTo(new PermitPool(capacity, Map.copyOf(pool.held())));
        }
        String message = pool.exhaustedMessage();
        assertThat(message).contains("all " + capacity + " snapshot permits are in use");
        for (HolderKind kind : HolderKind.values()) {
            int held = pool.held().getOrDefault(kind, 0);
            if (held > 0) {
                assertThat(message).contains(held + " held by " + kind.plural());
            } else {
                assertThat(message).doesNotContain(kind.plural());
            }
        }
    }

    // [D7] the pool refuses counts it cannot hold: no capacity, a negative count, more out than the
    // capacity, a connection pool of no connections; a zero count is the same as none.
    @Example
    void d7_poolRefusesImpossibleCounts() {
        assertThat(new PermitPool(2, Map.of(HolderKind.BACKUP, 0))).isEqualTo(PermitPool.withCapacity(2));
        assertThat(new PermitPool(2, Map.of(HolderKind.BACKUP, 2)).inUse()).isEqualTo(2);
        assertRefused(() -> PermitPool.withCapacity(0), "at least 1");
        assertRefused(() -> new PermitPool(2, Map.of(HolderKind.BACKUP, -1)), "-1");
        assertRefused(() -> new PermitPool(2, Map.of(HolderKind.BACKUP, 2, HolderKind.TABLE_SNAPSHOT, 1)), "capacity 2");
        assertRefused(() -> PermitPool.halfOf(0), "at least 1");
        assertThat(PermitPool.halfOf(1).capacity()).isEqualTo(1);
        Transition<PermitPool, PermitPool.Effect, PermitPool.Refusal> release =
                PermitPool.withCapacity(1).apply(PermitPool.Event.RELEASE, HolderKind.BACKUP);
        assertThat(release).isInstanceOfSatisfying(Transition.Refused.class, r -> {
            assertThat(r.refusal()).isEqualTo(PermitPool.Refusal.NOTHING_HELD);
            assertThat(r.detail()).contains("backups hold no permit");
        });
    }

    private static void assertRefused(ThrowingCallable call, String named) {
        assertThatThrownBy(call).isInstanceOfSatisfying(StorageException.class, e -> {
            assertThat(e.reason()).isEqualTo(ErrorReason.VALIDATION);
            assertThat(e.getMessage()).contains(named);
        });
    }

    @Provide
    Arbitrary<List<Tuple2<PermitPool.Event, HolderKind>>> operations() {
        return Arbitraries.of(PermitPool.Event.class).flatMap(e -> Arbitraries.of(HolderKind.class).map(k -> Tuple.of(e, k)))
                .list().ofMaxSize(40);
    }
}
