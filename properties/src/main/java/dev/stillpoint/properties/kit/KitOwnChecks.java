package dev.stillpoint.properties.kit;

import static dev.stillpoint.properties.kit.KitSupport.ACCOUNT;
import static dev.stillpoint.properties.kit.KitSupport.ACTIVE_DEADLINE;

import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.in.ItemStream;
import dev.stillpoint.ports.in.StoredItem;
import dev.stillpoint.ports.in.TableSnapshot;
import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.ports.out.ReadObserver;
import java.security.CodeSource;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The rules about the kit itself, run against the adapter under test so they show in its report:
 * K4 (every drain bounded, naming the stage and the items read; checks serialised) and K8 (the test
 * hooks are not part of the adapter's production classes).
 */
final class KitOwnChecks {

    private KitOwnChecks() {
    }

    /**
     * K4 on a real stream of the adapter: after two items the stream is made to hang (as a stuck fetch
     * would); the drain must give up within its deadline naming the stage and the two items, close the
     * adapter's stream, and the check must be the lock's holder while it runs.
     */
    static void k4(ConformanceFixture fixture, String check) {
        if (!KitLock.describeHolder().contains(check)) {
            throw new AssertionError("[K4] checks are serialised: '" + check + "' runs without holding the kit's lock ("
                    + KitLock.describeHolder() + ")");
        }
        String table = KitSupport.uniqueName("k4_stuck");
        try (KitEngine engine = fixture.start(new KitSettings(PageBudget.DEFAULT, ReadObserver.NONE, Duration.ZERO))) {
            engine.tables().createTable(new CreateTableRequest(ACCOUNT, table, KeySchema.hashOnly("pk"),
                    List.of(new AttributeDefinition("pk", ScalarType.S)), List.of(), List.of(), Optional.empty()));
            KitSupport.awaitStatus(engine.tables(), table, TableStatus.ACTIVE, ACTIVE_DEADLINE);
            for (int i = 0; i < 5; i++) {
                engine.tables().putItem(ACCOUNT, table, Item.of(Map.of("pk", AttributeValue.s("p" + i))));
            }
            TableSnapshot snapshot = engine.snapshots().openTableSnapshot(ACCOUNT, table);
            HangingAfter hanging = new HangingAfter(snapshot.items(), 2);
            AssertionError expired;
            try {
                Drain.all(hanging, "k4 stuck stream", Duration.ofMillis(500));
                throw new AssertionError("[K4] a drain of a stream that hangs returned instead of failing at its deadline");
            } catch (AssertionError e) {
                expired = e;
            }
            String message = Objects.toString(expired.getMessage(), "");
            if (!message.contains("[K4]") || !message.contains("k4 stuck stream") || !message.contains("2 items were read")) {
                throw new AssertionError("[K4] a drain past its deadline names the stage and the items read; it said: "
                        + message, expired);
            }
            try {
                if (!hanging.closed.await(ACTIVE_DEADLINE.toSeconds(), TimeUnit.SECONDS)) {
                    throw new AssertionError("[K4] the drain that gave up did not close the adapter's stream");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("[K4] interrupted waiting for the abandoned stream's close", e);
            }
            if (!snapshot.items().isReleased()) {
                throw new AssertionError("[K4] the adapter's stream was closed but its lease is not released");
            }
        }
    }

    /**
     * K8: the kit's hooks (pauses, round-trip counter, lock, page-size settings) come from the kit's
     * own jar, never from the jars of the adapter's engine; production passes {@link ReadObserver#NONE}.
     */
    static void k8(ConformanceFixture fixture) {
        CodeSource kit = KitHooks.class.getProtectionDomain().getCodeSource();
        try (KitEngine engine = fixture.start(new KitSettings(PageBudget.DEFAULT, ReadObserver.NONE, Duration.ZERO))) {
            for (Object production : List.of(engine.tables(), engine.snapshots())) {
                CodeSource source = production.getClass().getProtectionDomain().getCodeSource();
                if (kit != null && source != null && kit.getLocation().equals(source.getLocation())) {
                    throw new AssertionError("[K8] " + production.getClass().getName() + " is loaded from the kit's own"
                            + " classes (" + kit.getLocation() + "): the test hooks must live only in test artifacts");
                }
            }
        }
        if (ReadObserver.NONE.getClass().getName().startsWith("dev.stillpoint.properties")) {
            throw new AssertionError("[K8] production's ReadObserver.NONE comes from the kit");
        }
    }

    /** The adapter's stream, made to hang after {@code n} items until it is closed. */
    private static final class HangingAfter implements ItemStream {
        private final ItemStream items;
        private final int n;
        private final CountDownLatch closed = new CountDownLatch(1);
        private int handed;

        HangingAfter(ItemStream items, int n) {
            this.items = items;
            this.n = n;
        }

        @Override
        public boolean hasNext() {
            if (handed < n) {
                return items.hasNext();
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
            handed++;
            return items.next();
        }

        @Override
        public void close() {
            items.close();
            closed.countDown();
        }

        @Override
        public boolean isReleased() {
            return items.isReleased();
        }
    }
}
