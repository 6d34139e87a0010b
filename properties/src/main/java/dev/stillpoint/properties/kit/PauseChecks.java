package dev.stillpoint.properties.kit;

import static dev.stillpoint.properties.kit.KitSupport.ACCOUNT;
import static dev.stillpoint.properties.kit.KitSupport.ACTIVE_DEADLINE;
import static dev.stillpoint.properties.kit.KitSupport.LARGE_BYTES;
import static dev.stillpoint.properties.kit.KitSupport.STEP_DEADLINE;

import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateGsiRequest;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.Projection;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.in.StoredItem;
import dev.stillpoint.ports.in.TableOperations;
import dev.stillpoint.ports.in.TableSnapshot;
import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.ports.out.PausePoint;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.assertj.core.api.SoftAssertions;

/**
 * K2: an open held at a pause point inside its read window while W1, an UpdateTable adding a GSI
 * and W2 commit, in that order. What one instant implies: a description with the GSI has W1; items
 * with W2 have the GSI; W2 is not in the items at all. And which of W2's commit or the 2 s timeout
 * resumed the open must be what the backend declared, so a slow UpdateTable cannot make the W2
 * assertion vacuous.
 */
final class PauseChecks {

    /** What let the held open go on. */
    enum Resumer { W2_COMMITTED, TIMEOUT }

    static final Duration RESUME_TIMEOUT = Duration.ofSeconds(2);
    static final Duration REACH_DEADLINE = Duration.ofSeconds(60);
    static final String NEW_GSI = "k2_gsi";
    static final int BASE_ITEMS = 10;

    private PauseChecks() {
    }

    private static Item item(String pk) {
        return Item.of(Map.of("pk", AttributeValue.s(pk), "g", AttributeValue.s("x")));
    }

    static void k2(ConformanceFixture fixture, PausePoint point) {
        Expectations expect = fixture.expectations();
        KitHooks hooks = new KitHooks();
        try (KitEngine engine = fixture.start(new KitSettings(new PageBudget(50, LARGE_BYTES), hooks, Duration.ZERO));
             KitSupport.Threads threads = new KitSupport.Threads("K2-" + point)) {
            TableOperations tables = engine.tables();
            String table = KitSupport.uniqueName("k2");
            tables.createTable(new CreateTableRequest(ACCOUNT, table, KeySchema.hashOnly("pk"),
                    List.of(new AttributeDefinition("pk", ScalarType.S)), List.of(), List.of(), Optional.empty()));
            KitSupport.awaitStatus(tables, table, TableStatus.ACTIVE, ACTIVE_DEADLINE);
            List<Key> base = new ArrayList<>();
            for (int i = 0; i < BASE_ITEMS; i++) {
                tables.putItem(ACCOUNT, table, item("base" + i));
                base.add(Key.of(AttributeValue.s("base" + i)));
            }
            Key w1 = Key.of(AttributeValue.s("w1"));
            Key w2 = Key.of(AttributeValue.s("w2"));

            KitHooks.PauseGate gate = hooks.arm(point);
            Future<TableSnapshot> opening = threads.submit(() -> engine.snapshots().openTableSnapshot(ACCOUNT, table));
            TableSnapshot snapshot = null;
            Resumer resumedBy;
            try {
                if (!awaitReached(gate, opening)) {
                    throw new AssertionError("[K2] the open never reached the pause at " + point + " within "
                            + REACH_DEADLINE.toSeconds() + " s; the adapter must call ReadObserver.atPause(" + point
                            + ") inside its read window (or run through LeasedSnapshotEngine)"
                            + (opening.isDone() ? "; the open returned without pausing" : ""));
                }
                tables.putItem(ACCOUNT, table, item("w1"));
                long updateStarted = System.nanoTime();
                CompletableFuture<TableDescription> update = CompletableFuture.supplyAsync(
                        () -> tables.addGlobalSecondaryIndex(ACCOUNT, table, CreateGsiRequest.of(
                                GlobalSecondaryIndex.creating(NEW_GSI, KeySchema.hashOnly("g"), Projection.all()),
                                new AttributeDefinition("g", ScalarType.S))),
                        threads.executor());
                // W2 only once the UpdateTable returned ("in that order"); where UpdateTable waits for the
                // open, W2 cannot commit during the pause and the timeout resumes the open instead.
                CompletableFuture<Void> write2 = update.thenRunAsync(
                        () -> tables.putItem(ACCOUNT, table, item("w2")), threads.executor());
                resumedBy = awaitW2OrTimeout(write2, updateStarted, point);
                gate.release();
                snapshot = KitSupport.await(opening, STEP_DEADLINE, "K2 open at " + point + " after the release");
                KitSupport.await(update, STEP_DEADLINE, "K2 UpdateTable adding " + NEW_GSI);
                KitSupport.await(write2, STEP_DEADLINE, "K2 W2");

                List<StoredItem> items = Drain.all(snapshot.items(), "K2 drain at " + point);
                List<Key> keys = KitSupport.keys(items, snapshot.description().keySchema());
                boolean hasGsi = snapshot.description().gsi(NEW_GSI).isPresent();
                boolean hasW1 = keys.contains(w1);
                boolean hasW2 = keys.contains(w2);
                String seen = "(description " + (hasGsi ? "has" : "lacks") + " " + NEW_GSI + ", items "
                        + (hasW1 ? "have" : "lack") + " W1, " + (hasW2 ? "have" : "lack") + " W2)";

                SoftAssertions soft = new SoftAssertions();
                soft.assertThat(!hasGsi || hasW1)
                        .as("[K2] at %s: a description with the new GSI has W1, committed before the UpdateTable %s",
                                point, seen)
                        .isTrue();
                soft.assertThat(!hasW2 || hasGsi)
                        .as("[K2] at %s: items with W2 have the GSI in the description %s", point, seen)
                        .isTrue();
                soft.assertThat(hasW2)
                        .as("[K2] at %s: W2 is not in the items at all: it committed after the pause, which is "
                                + "inside the open's read window %s", point, seen)
                        .isFalse();
                soft.assertThat(keys).as("[K2] at %s: every item committed before the open is there", point)
                        .containsAll(base);
                Resumer expected = expect.updateTableWaitsAt().filter(point::equals).isPresent()
                        ? Resumer.TIMEOUT : Resumer.W2_COMMITTED;
                soft.assertThat(resumedBy)
                        .as("[K2] at %s: what resumed the open (W2's commit or the %d s timeout), against "
                                + "Expectations.updateTableWaitsAt = %s", point, RESUME_TIMEOUT.toSeconds(),
                                expect.updateTableWaitsAt())
                        .isEqualTo(expected);
                soft.assertAll();
            } finally {
                gate.release();
                if (snapshot != null) {
                    snapshot.close();
                } else {
                    closeWhenOpened(opening);
                }
            }
            KitSupport.bestEffortDelete(tables, table);
        }
    }

    private static boolean awaitReached(KitHooks.PauseGate gate, Future<TableSnapshot> opening) {
        long end = System.nanoTime() + REACH_DEADLINE.toNanos();
        try {
            // Wake every 50 ms to notice an open that ended without pausing; the latch carries the signal.
            while (System.nanoTime() - end < 0) {
                if (gate.awaitReached(Duration.ofMillis(50))) {
                    return true;
                }
                if (opening.isDone()) {
                    return gate.reached();
                }
            }
            return gate.reached();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for the pause", e);
        }
    }

    private static Resumer awaitW2OrTimeout(CompletableFuture<Void> write2, long updateStarted, PausePoint point) {
        long left = RESUME_TIMEOUT.toNanos() - (System.nanoTime() - updateStarted);
        try {
            write2.get(Math.max(0, left), TimeUnit.NANOSECONDS);
            return Resumer.W2_COMMITTED;
        } catch (TimeoutException e) {
            return Resumer.TIMEOUT;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for W2", e);
        } catch (ExecutionException e) {
            throw new AssertionError("[K2] at " + point + ": the UpdateTable or W2 failed while the open was held: "
                    + e.getCause(), e.getCause());
        }
    }

    private static void closeWhenOpened(Future<TableSnapshot> opening) {
        try {
            opening.get(STEP_DEADLINE.toSeconds(), TimeUnit.SECONDS).close();
        } catch (Exception | AssertionError ignored) {
            // The open failed or never finished; the engine's close reclaims whatever it holds.
        }
    }
}
