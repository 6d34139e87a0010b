package dev.stillpoint.properties.machinery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.lifecycle.TableLifecycle;
import dev.stillpoint.domain.lifecycle.TableState;
import dev.stillpoint.domain.table.RestoreOrigin;
import dev.stillpoint.ports.in.RestoreLoad;
import dev.stillpoint.core.lifecycle.ControlPlanePass;
import dev.stillpoint.core.lifecycle.RestoreSweep;
import dev.stillpoint.core.lifecycle.TableDeletion;
import dev.stillpoint.ports.out.DropResult;
import dev.stillpoint.ports.out.PendingTransition;
import dev.stillpoint.ports.out.TableRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The poller's look at restoring tables [E5, L2] and what a running restore finds once its table was
 * removed, over in-memory fakes and a clock the test moves (no waiting): a restore whose stamp has
 * passed is removed, a live one is due again when its stamp passes, and the restore that lost its
 * table is told so on every call.
 */
class RestoreSweepTest {

    private static final Instant T0 = RestoreRig.T0;
    private static final Duration LIMIT = RestoreRig.LIMIT;
    private static final RestoreOrigin ORIGIN = new RestoreOrigin(Optional.empty(), T0);

    private final RestoreRig rig = new RestoreRig();
    private final RestoreSweep sweep = new RestoreSweep(rig.deletion, rig.clock);

    // E5: at its stamp a restore is dead and removed; the live ones stay, and the sweep is due again at
    // the earliest of their stamps, in whatever order the catalog lists them.
    @Test
    void e5_theSweepRemovesRestoresPastTheirStampAndIsDueAtTheEarliestLiveOne() {
        for (boolean reversed : new boolean[] {false, true}) {
            FakeCatalog rows = new FakeCatalog();
            RestoreSweep sweepOf = new RestoreSweep(new TableDeletion(rows, rig.clock, () -> { }, () -> Duration.ZERO), rig.clock);
            Instant now = rig.clock.now();
            restoring(rows, "dead", now);
            restoring(rows, "soon", now.plusSeconds(30));
            restoring(rows, "later", now.plusSeconds(45));
            List<PendingTransition> listed = new ArrayList<>(rows.restoringTables());
            listed.sort(java.util.Comparator.comparing(PendingTransition::tableName));
            if (reversed) {
                Collections.reverse(listed);
            }
            RestoreSweep.Outcome outcome = sweepOf.run(listed);
            assertThat(rows.rows).as("[E5] the restore at its stamp is removed, the live ones stay")
                    .containsOnlyKeys("soon", "later");
            assertThat(outcome.nextDue()).as("[E5] due again at the earliest live stamp (reversed %s)", reversed)
                    .contains(now.plusSeconds(30));
            assertThat(outcome.deferred()).isFalse();
        }
    }

    // E5: one look at a restoring table: a live one is due at its stamp; a dead one held by a reader is
    // deferred (marked DELETING); one whose drop fails is due again a drop budget later; a row in
    // another state is none of the sweep's business.
    @Test
    void e5_eachLookAtARestoringTableAnswersWhatItFound() {
        restoring(rig.catalog, "live", T0.plusSeconds(1));
        assertThat(sweep.check(listed("live"))).as("[E5] a live restore is due at its stamp")
                .isEqualTo(new RestoreSweep.Outcome(false, Optional.of(T0.plusSeconds(1))));

        restoring(rig.catalog, "held", T0);
        rig.catalog.held = table -> table.equals("held");
        assertThat(sweep.check(listed("held"))).as("[E5] a held dead restore is deferred")
                .isEqualTo(new RestoreSweep.Outcome(true, Optional.empty()));
        assertThat(rig.catalog.rows.get("held").state()).isInstanceOf(TableState.Deleting.class);

        restoring(rig.catalog, "failing", T0);
        rig.catalog.dropAnswer = table -> DropResult.failed("disk full");
        assertThat(sweep.check(listed("failing"))).as("[E5] a failed removal is due again a drop budget later")
                .isEqualTo(new RestoreSweep.Outcome(false, Optional.of(T0.plus(TableLifecycle.DROP_BUDGET))));

        assertThat(sweep.check(new PendingTransition("acct", "other", new TableState.Creating(T0))))
                .as("[E5] a CREATING row is not the sweep's").isEqualTo(new RestoreSweep.Outcome(false, Optional.empty()));
        assertThat(rig.catalog.calls).noneMatch(c -> c.endsWith(" other") || c.endsWith(" live"));
    }

    // E5: a restore that renewed its stamp after the pass listed it is not removed: the drop attempt
    // reads the stamp again.
    @Test
    void e5_aRestoreRenewedSinceTheListingIsKept() {
        restoring(rig.catalog, "renewed", T0.plusSeconds(30));
        PendingTransition stale = new PendingTransition("acct", "renewed", new TableState.Restoring(T0));
        assertThat(sweep.check(stale).deferred()).isFalse();
        assertThat(rig.catalog.rows).as("[E5] a live restore is never removed").containsKey("renewed");
    }

    // E5, D8: one table's failure does not stop the sweep for the others, and the pass counts a
    // deferred removal of a dead restore.
    @Test
    void e5_oneFailureDoesNotStopTheSweepAndThePassCountsDeferredRemovals() {
        restoring(rig.catalog, "dead", T0);
        PendingTransition vanished = new PendingTransition("acct", "vanished", new TableState.Restoring(T0));
        RestoreSweep.Outcome outcome = sweep.run(List.of(vanished, listed("dead")));
        assertThat(rig.catalog.rows).as("[E5] the sweep went on after the vanished table").doesNotContainKey("dead");
        assertThat(outcome).isEqualTo(new RestoreSweep.Outcome(false, Optional.empty()));

        restoring(rig.catalog, "held", T0);
        rig.catalog.held = table -> true;
        assertThat(sweep.run(List.of(listed("held"))).deferred()).as("[E5] a deferred removal is reported").isTrue();
        restoring(rig.catalog, "held2", T0);
        assertThat(new ControlPlanePass(rig.catalog, rig.deletion, rig.clock).run().deferredDrops())
                .as("[D8] the pass counts the deferred removal of a dead restore").isEqualTo(2);
    }

    // E5: once the sweep removed a restore's table, the restore is told on every call, closing it is
    // harmless, and it never touches a new table of the same name.
    @Test
    void e5_aRestoreWhoseTableWasRemovedIsNoLongerRunning() {
        RestoreLoad dead = rig.service.begin(Descriptions.request("acct", "Orders"), ORIGIN);
        rig.clock.advance(LIMIT);
        sweep.run(rig.catalog.restoringTables());
        assertThat(rig.catalog.rows).as("[E5] idle for restoreIdleLimit: removed").doesNotContainKey("Orders");

        assertThatThrownBy(() -> dead.write(items(2))).isInstanceOfSatisfying(StorageException.class, e -> {
            assertThat(e.reason()).isEqualTo(ErrorReason.TABLE_NOT_FOUND);
            assertThat(e.getMessage()).as("[E5] names the restore and the items").startsWith("restore into table 'Orders', items 1-2 of 2: ");
        });
        assertThatThrownBy(dead::complete).isInstanceOfSatisfying(StorageException.class, e -> {
            assertThat(e.reason()).isEqualTo(ErrorReason.TABLE_NOT_FOUND);
            assertThat(e.getMessage()).as("[E5] why it is gone").contains("no longer running")
                    .contains("restoreIdleLimit 60000 ms");
        });

        try (RestoreLoad next = rig.service.begin(Descriptions.request("acct", "Orders"), ORIGIN)) {
            assertThatThrownBy(() -> dead.write(items(1))).isInstanceOfSatisfying(StorageException.class, e -> {
                assertThat(e.reason()).isEqualTo(ErrorReason.TABLE_NOT_FOUND);
                assertThat(e.getMessage()).as("[E5] another table instance is not its table").contains("no longer running");
            });
            assertThat(rig.storage.writeSizes).as("[E5] nothing written into another table instance").isEmpty();
            dead.close();
            assertThat(rig.catalog.rows).as("[E5] closing the dead restore leaves the new table").containsKey("Orders");
            assertThat(rig.deletion.abandonRestore("acct", "Orders", dead.table().tableId()))
                    .as("[E5] another instance is not the abandoned restore's to remove").isEqualTo(TableDeletion.Result.NOT_DUE);
            next.write(items(1));
            assertThat(next.complete().tableId()).isEqualTo(next.table().tableId());
        }
        assertThat(rig.catalog.rows).containsKey("Orders");
        RestoreLoad abandoned = rig.service.begin(Descriptions.request("acct", "Abandoned"), ORIGIN);
        assertThat(rig.deletion.abandonRestore("acct", "Abandoned", abandoned.table().tableId()))
                .as("[E5] an abandoned restore's table is dropped").isEqualTo(TableDeletion.Result.DROPPED);
    }

    // E5: a row that is no longer this restore's (here: no longer restoring) refuses its items, its
    // renewal and its completion alike.
    @Test
    void e5_aRowNoLongerRestoringRefusesTheRenewalAndTheCompletion() {
        try (RestoreLoad load = rig.service.begin(Descriptions.request("acct", "Orders"), ORIGIN)) {
            TableRecord row = rig.catalog.rows.get("Orders");
            rig.catalog.rows.put("Orders", new TableRecord(row.description(), new TableState.Creating(T0)));
            rig.clock.advance(LIMIT.dividedBy(4));
            assertThatThrownBy(() -> load.write(items(1))).isInstanceOfSatisfying(StorageException.class, e -> {
                assertThat(e.reason()).isEqualTo(ErrorReason.TABLE_NOT_FOUND);
                assertThat(e.getMessage()).as("[E5] the renewal found no restoring row").contains("no longer running");
            });
            assertThat(rig.catalog.calls).contains("renew Orders");
            assertThatThrownBy(load::complete).isInstanceOfSatisfying(StorageException.class, e ->
                    assertThat(e.getMessage()).as("[E5] nor did the completion").contains("no longer running"));
            rig.catalog.rows.put("Orders", new TableRecord(row.description().withStatus(
                    dev.stillpoint.domain.table.TableStatus.ACTIVE), new TableState.Active()));
            assertThatThrownBy(() -> load.write(items(1))).isInstanceOfSatisfying(StorageException.class, e ->
                    assertThat(e.getMessage()).as("[E5] an ACTIVE table is not a restore's").contains("no longer running"));
        }
    }

    private static void restoring(FakeCatalog rows, String table, Instant aliveUntil) {
        rows.rows.put(table, new TableRecord(Descriptions.active("acct", table)
                .withStatus(dev.stillpoint.domain.table.TableStatus.CREATING), new TableState.Restoring(aliveUntil)));
    }

    private PendingTransition listed(String table) {
        return new PendingTransition("acct", table, rig.catalog.rows.get(table).state());
    }

    private static List<Item> items(int count) {
        List<Item> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(Item.of(Map.of("pk", new AttributeValue.S("k" + i))));
        }
        return out;
    }
}
