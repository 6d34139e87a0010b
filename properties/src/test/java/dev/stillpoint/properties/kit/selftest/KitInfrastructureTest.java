package dev.stillpoint.properties.kit.selftest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.ports.in.ItemStream;
import dev.stillpoint.ports.in.StoredItem;
import dev.stillpoint.ports.out.PausePoint;
import dev.stillpoint.properties.kit.Drain;
import dev.stillpoint.properties.kit.KitHooks;
import dev.stillpoint.properties.kit.KitLock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.Example;

/** The kit's own machinery [K4, K8]: bounded drains, the lock that names its holder, one-shot pauses. */
class KitInfrastructureTest {

    /** Yields {@code before} items, then blocks in hasNext until closed: a stream that never ends. */
    private static final class StuckStream implements ItemStream {
        private final int before;
        private final CountDownLatch closed = new CountDownLatch(1);
        private int yielded;

        StuckStream(int before) {
            this.before = before;
        }

        @Override
        public boolean hasNext() {
            if (yielded < before) {
                return true;
            }
            try {
                closed.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return false;
        }

        @Override
        public StoredItem next() {
            int n = yielded++;
            return new StoredItem() {
                @Override
                public String json() {
                    return "{\"pk\":{\"S\":\"" + n + "\"}}";
                }

                @Override
                public Item item() {
                    return Item.of(Map.of("pk", AttributeValue.s(Integer.toString(n))));
                }
            };
        }

        @Override
        public void close() {
            closed.countDown();
        }

        @Override
        public boolean isReleased() {
            return closed.getCount() == 0;
        }
    }

    // K4: "Every drain under a deadline naming the stage and items read."
    @Example
    void k4_aStreamThatNeverEndsFailsAtTheDeadlineNamingStageAndCount() throws Exception {
        StuckStream stream = new StuckStream(3);
        assertThatThrownBy(() -> Drain.all(stream, "stage under test", Duration.ofMillis(300)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("[K4] stage 'stage under test'")
                .hasMessageContaining("3 items were read");
        assertThat(stream.closed.await(10, TimeUnit.SECONDS)).as("the abandoned stream is closed").isTrue();
    }

    // K4: a stream that repeats its items forever fails by count, long before the heap or the deadline.
    @Example
    void k4_aStreamThatRepeatsForeverFailsPastTheItemCeilingNamingTheStage() {
        StuckStream stream = new StuckStream(Integer.MAX_VALUE);
        assertThatThrownBy(() -> Drain.all(stream, "endless stage", Duration.ofSeconds(60)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("[K4] stage 'endless stage'")
                .hasMessageContaining("more than " + Drain.MAX_ITEMS + " items");
        assertThat(stream.isReleased()).as("the overflowing stream is closed").isTrue();
    }

    @Example
    void k4_takeReadsExactlyNAndLeavesTheRest() {
        StuckStream stream = new StuckStream(5);
        assertThat(Drain.take(stream, 2, "first two", Duration.ofSeconds(10))).hasSize(2);
        assertThat(Drain.take(stream, 3, "next three", Duration.ofSeconds(10))).hasSize(3);
        stream.close();
    }

    // K4: "hooks serialised between tests": a check waiting for the lock gives up naming the holder.
    @Example
    @SuppressWarnings("try")
    void k4_aWaitForTheKitLockGivesUpNamingTheHolder() throws Exception {
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        Thread holder = new Thread(() -> {
            try (KitLock.Held lock = KitLock.hold("the holding check")) {
                held.countDown();
                done.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "kit-lock-holder");
        holder.start();
        try {
            assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();
            assertThatThrownBy(() -> KitLock.hold("the waiting check", Duration.ofMillis(200)))
                    .isInstanceOf(AssertionError.class)
                    .hasMessageContaining("[K4] check 'the waiting check'")
                    .hasMessageContaining("check 'the holding check' on thread 'kit-lock-holder'");
        } finally {
            done.countDown();
            holder.join(10_000);
        }
        try (KitLock.Held again = KitLock.hold("after the holder", Duration.ofSeconds(10))) {
            assertThat(KitLock.describeHolder()).contains("after the holder");
        }
    }

    // K2/K8: a pause is armed for one open: other points and later opens pass straight through.
    @Example
    void k8_anArmedPauseHoldsOneOpenOnly() throws Exception {
        KitHooks hooks = new KitHooks();
        KitHooks.PauseGate gate = hooks.arm(PausePoint.BEFORE_ITEMS);
        hooks.atPause(PausePoint.AFTER_DEFINITION);
        assertThat(gate.reached()).as("another point does not take the pause").isFalse();

        CompletableFuture<Void> held = CompletableFuture.runAsync(() -> hooks.atPause(PausePoint.BEFORE_ITEMS));
        assertThat(gate.awaitReached(Duration.ofSeconds(10))).isTrue();
        CompletableFuture<Void> other = CompletableFuture.runAsync(() -> hooks.atPause(PausePoint.BEFORE_ITEMS));
        other.get(10, TimeUnit.SECONDS);
        assertThat(held).as("the first open is still held").isNotDone();
        assertThatThrownBy(() -> hooks.arm(PausePoint.AFTER_DEFINITION))
                .as("one armed open at a time").isInstanceOf(IllegalStateException.class);
        gate.release();
        held.get(10, TimeUnit.SECONDS);
        hooks.arm(PausePoint.AFTER_DEFINITION).release();
    }

    @Example
    void k8_theCounterCountsRoundTrips() {
        KitHooks hooks = new KitHooks();
        hooks.roundTrip();
        hooks.roundTrip();
        assertThat(hooks.roundTrips()).isEqualTo(2);
    }
}
