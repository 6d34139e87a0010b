package dev.stillpoint.properties.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.domain.machine.Transition;
import dev.stillpoint.domain.snapshot.HolderKind;
import dev.stillpoint.domain.snapshot.PermitPool;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.Tuple.Tuple2;
import net.jqwik.api.constraints.IntRange;

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

    @Provide
    Arbitrary<List<Tuple2<PermitPool.Event, HolderKind>>> operations() {
        return Arbitraries.of(PermitPool.Event.class).flatMap(e -> Arbitraries.of(HolderKind.class).map(k -> Tuple.of(e, k)))
                .list().ofMaxSize(40);
    }
}
