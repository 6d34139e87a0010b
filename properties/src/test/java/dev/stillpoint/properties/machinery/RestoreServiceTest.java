package dev.stillpoint.properties.machinery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.lifecycle.TableState;
import dev.stillpoint.domain.table.RestoreOrigin;
import dev.stillpoint.domain.table.RestoreSummary;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.core.RestoreService;
import dev.stillpoint.ports.in.RestoreLoad;
import dev.stillpoint.core.lifecycle.TableDeletion;
import dev.stillpoint.ports.out.TableRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The restore's core (RestoreService and its running restore) over in-memory fakes of the catalog,
 * the item store and the drop port, with a clock the test moves: the new table CREATING with its
 * summary in progress until complete [E4], the load in chunks of at most 100 items or 4 MiB, each one
 * unit of work, and a load that fails or is closed without completing leaving no table [E5].
 */
class RestoreServiceTest {

    private static final Instant T0 = RestoreRig.T0;
    private static final Duration LIMIT = RestoreRig.LIMIT;
    private static final RestoreOrigin ORIGIN = new RestoreOrigin(Optional.of("arn:source"), T0.minusSeconds(3600));

    private final RestoreRig rig = new RestoreRig();

    // E4: the new table is CREATING with its summary in progress (the origin's ARN and time) and stamped
    // alive for the idle limit; its items go in; complete makes it ACTIVE, the summary no longer in progress.
    @Test
    void e4_aRestoreCreatesTheTableCreatingThenActiveWithItsSummary() {
        RestoreLoad load = rig.service.begin(Descriptions.request("acct", "Orders"), ORIGIN);
        TableDescription begun = load.table();
        assertThat(begun.status()).as("[E4] CREATING while it restores").isEqualTo(TableStatus.CREATING);
        assertThat(begun.restoreSummary()).as("[E4] the summary, in progress")
                .contains(new RestoreSummary(Optional.empty(), Optional.of("arn:source"), ORIGIN.restoreDateTime(), true));
        assertThat(rig.catalog.rows.get("Orders").state()).as("[E5] stamped alive until now + restoreIdleLimit")
                .isEqualTo(new TableState.Restoring(T0.plus(LIMIT)));

        load.write(items(0, 3));
        assertThat(rig.storage.items).as("[E4] the items written").containsOnlyKeys("Orders/k0", "Orders/k1", "Orders/k2");
        TableDescription done = load.complete();
        assertThat(done.status()).as("[E4] ACTIVE once complete").isEqualTo(TableStatus.ACTIVE);
        assertThat(done.restoreSummary().map(RestoreSummary::restoreInProgress)).as("[E4] in progress false")
                .contains(false);
        assertThat(rig.catalog.rows.get("Orders").state()).isEqualTo(new TableState.Active());

        assertThatThrownBy(() -> load.write(items(3, 4))).isInstanceOfSatisfying(StorageException.class, e -> {
            assertThat(e.reason()).isEqualTo(ErrorReason.VALIDATION);
            assertThat(e.getMessage()).as("[E4] no write after complete").contains("Orders").contains("it is complete");
        });
        assertThatThrownBy(load::complete).hasMessageContaining("it is complete");
        load.close();
        assertThat(rig.catalog.rows).as("[E5] closing a completed restore keeps its table").containsKey("Orders");
        assertThat(rig.catalog.calls).noneMatch(c -> c.startsWith("begin"));
    }

    // E4: a name in use, in any state (a running restore's included), is refused before anything is
    // written; so are a bad definition and a missing origin.
    @Test
    void e4_aNameInUseIsRefusedUpFront() {
        rig.catalog.rows.put("Orders", new TableRecord(Descriptions.active("acct", "Orders"), new TableState.Active()));
        assertThatThrownBy(() -> rig.service.begin(Descriptions.request("acct", "Orders"), ORIGIN))
                .isInstanceOfSatisfying(StorageException.class, e -> {
                    assertThat(e.reason()).as("[E4] ResourceInUse").isEqualTo(ErrorReason.RESOURCE_IN_USE);
                    assertThat(e.getMessage()).as("[E4] names the table").contains("'Orders'");
                });
        try (RestoreLoad running = rig.service.begin(Descriptions.request("acct", "Fresh"), ORIGIN)) {
            assertThatThrownBy(() -> rig.service.begin(Descriptions.request("acct", "Fresh"), ORIGIN))
                    .isInstanceOfSatisfying(StorageException.class, e -> {
                        assertThat(e.reason()).isEqualTo(ErrorReason.RESOURCE_IN_USE);
                        assertThat(e.getMessage()).as("[E4] a running restore holds its name").contains("being restored");
                    });
            assertThat(running.table().tableName()).isEqualTo("Fresh");
        }
        assertThatThrownBy(() -> rig.service.begin(Descriptions.request("acct", "x!"), ORIGIN))
                .isInstanceOfSatisfying(StorageException.class, e ->
                        assertThat(e.reason()).isEqualTo(ErrorReason.VALIDATION));
        assertThatThrownBy(() -> rig.service.begin(Descriptions.request("acct", "NoOrigin"), null))
                .isInstanceOfSatisfying(StorageException.class, e -> {
                    assertThat(e.reason()).isEqualTo(ErrorReason.VALIDATION);
                    assertThat(e.getMessage()).as("[R6] names the table").contains("NoOrigin").contains("origin");
                });
        assertThat(rig.catalog.calls).as("[E4] one insert: the running restore's").containsOnlyOnce("insert-restoring Fresh")
                .noneMatch(c -> c.contains("Orders") || c.contains("NoOrigin"));
    }

    // E4: a load goes in units of work of at most 100 items, whatever the batch.
    @Test
    void e4_aLoadIsWrittenInChunksOfAtMostOneHundredItems() {
        try (RestoreLoad load = rig.service.begin(Descriptions.request("acct", "Orders"), ORIGIN)) {
            load.write(items(0, 250));
            load.write(List.of());
            load.write(items(250, 251));
            assertThat(rig.storage.writeSizes).as("[E4] 100 items per unit of work").containsExactly(100, 100, 50, 1);
            assertThat(rig.storage.items).hasSize(251);
        }
    }

    // E4: a load's unit of work stops once it holds 4 MiB of items: 16 items of 256 KiB make one, the
    // 17th starts the next.
    @Test
    void e4_aChunkEndsOnceItHoldsFourMebibytes() {
        List<Item> big = IntStream.range(0, 20).mapToObj(i -> Item.of(Map.of(
                "pk", new AttributeValue.S("k" + (1000 + i)), "v", new AttributeValue.S("x".repeat(262_136))))).toList();
        assertThat(big).allMatch(item -> item.sizeInBytes() == 262_144);
        try (RestoreLoad load = rig.service.begin(Descriptions.request("acct", "Orders"), ORIGIN)) {
            load.write(big);
            assertThat(rig.storage.writeSizes).as("[E4] a chunk ends at 4 MiB").containsExactly(16, 4);
        }
    }

    // E5: an item the rules refuse stops the load naming its place; the earlier chunks stay written,
    // its own chunk is not; closing the restore then removes the table, and its name is free again.
    @Test
    void e5_aRefusedItemStopsTheLoadAndCloseLeavesNoTable() {
        RestoreLoad load = rig.service.begin(Descriptions.request("acct", "Orders"), ORIGIN);
        List<Item> batch = new ArrayList<>(items(0, 150));
        batch.set(119, Item.of(Map.of("pk", new AttributeValue.N("7"))));
        assertThatThrownBy(() -> load.write(batch)).isInstanceOfSatisfying(StorageException.class, e -> {
            assertThat(e.reason()).as("[R3] PutItem's rules").isEqualTo(ErrorReason.VALIDATION);
            assertThat(e.getMessage()).as("[E5] names the restore and the item's place")
                    .startsWith("restore into table 'Orders', item 120 of 150: ");
        });
        assertThat(rig.storage.writeSizes).as("[E4] the first chunk only").containsExactly(100);
        load.close();
        assertThat(rig.catalog.rows).as("[E5] no table left behind").doesNotContainKey("Orders");
        assertThat(rig.catalog.calls).as("[E5] removed through DeleteTable's drop attempt")
                .containsSubsequence("begin Orders", "probe Orders", "drop Orders", "remove-row Orders", "commit Orders");
        int calls = rig.catalog.calls.size();
        load.close();
        assertThat(rig.catalog.calls).as("[E5] close is idempotent").hasSize(calls);
        assertThatThrownBy(() -> load.write(items(0, 1))).isInstanceOfSatisfying(StorageException.class, e -> {
            assertThat(e.reason()).isEqualTo(ErrorReason.VALIDATION);
            assertThat(e.getMessage()).as("[E5] a closed restore takes nothing more").contains("it was closed");
        });
        assertThatThrownBy(() -> load.write(null)).hasMessageContaining("it was closed");
        try (RestoreLoad again = rig.service.begin(Descriptions.request("acct", "Orders"), ORIGIN)) {
            assertThat(again.table().tableId()).as("[E4] a new table instance").isNotEqualTo(load.table().tableId());
        }
    }

    // E5: a close between two chunks of a write (a shutdown hook's) stops the load before its next
    // chunk: the write fails naming the close, and no table is left.
    @Test
    void e5_aCloseBetweenTwoChunksStopsTheLoad() {
        RestoreLoad load = rig.service.begin(Descriptions.request("acct", "Orders"), ORIGIN);
        rig.storage.afterWrite = load::close;
        assertThatThrownBy(() -> load.write(items(0, 150))).isInstanceOfSatisfying(StorageException.class, e -> {
            assertThat(e.reason()).isEqualTo(ErrorReason.VALIDATION);
            assertThat(e.getMessage()).as("[E5] the load stops at the close").contains("it was closed");
        });
        assertThat(rig.storage.writeSizes).as("[E5] no chunk after the close").containsExactly(100);
        assertThat(rig.catalog.rows).as("[E5] no table left behind").doesNotContainKey("Orders");
    }

    // R6: a missing batch or item is a validation error naming the table and the item's place; nothing written.
    @Test
    void r6_aMissingBatchOrItemIsRefusedNamingIt() {
        try (RestoreLoad load = rig.service.begin(Descriptions.request("acct", "Orders"), ORIGIN)) {
            assertThatThrownBy(() -> load.write(null)).isInstanceOfSatisfying(StorageException.class, e -> {
                assertThat(e.reason()).isEqualTo(ErrorReason.VALIDATION);
                assertThat(e.getMessage()).contains("'Orders'").contains("got null");
            });
            List<Item> withNull = new ArrayList<>(items(0, 3));
            withNull.set(1, null);
            assertThatThrownBy(() -> load.write(withNull)).isInstanceOfSatisfying(StorageException.class, e -> {
                assertThat(e.reason()).isEqualTo(ErrorReason.VALIDATION);
                assertThat(e.getMessage()).as("[R6] the null item's place").contains("item 2 of 3").contains("'Orders'");
            });
            assertThat(rig.storage.writeSizes).as("[R6] nothing written").isEmpty();
        }
    }

    // E5: a chunk the backend applied only in part stops the load, naming the items and how many are missing.
    @Test
    void e5_aChunkAppliedInPartStopsTheLoad() {
        try (RestoreLoad load = rig.service.begin(Descriptions.request("acct", "Orders"), ORIGIN)) {
            rig.storage.failAfter = 97;
            assertThatThrownBy(() -> load.write(items(0, 150))).isInstanceOfSatisfying(StorageException.class, e -> {
                assertThat(e.reason()).isEqualTo(ErrorReason.TRANSIENT);
                assertThat(e.getMessage()).as("[E5] the chunk and the missing count")
                        .isEqualTo("restore into table 'Orders', items 1-100 of 150: 3 of them were not written");
            });
            assertThat(rig.storage.writeSizes).as("[E5] the load stops at the first partial chunk").containsExactly(97);
        }
        assertThat(rig.catalog.rows).as("[E5] no table left behind").doesNotContainKey("Orders");
    }

    // E5: a restore closed while a reader holds its table is marked DELETING for the poller, which removes it.
    @Test
    void e5_aHeldRestoreIsMarkedForThePollerOnClose() {
        RestoreLoad load = rig.service.begin(Descriptions.request("acct", "Orders"), ORIGIN);
        load.write(items(0, 5));
        rig.catalog.held = table -> true;
        load.close();
        assertThat(rig.catalog.rows.get("Orders").state()).as("[E5] left to the poller, DELETING")
                .isInstanceOf(TableState.Deleting.class);
        assertThat(rig.catalog.rows.get("Orders").description().status()).isEqualTo(TableStatus.DELETING);
        rig.catalog.held = table -> false;
        assertThat(rig.deletion.retryDrop("acct", "Orders")).isEqualTo(TableDeletion.Result.DROPPED);
        assertThat(rig.catalog.rows).as("[E5] no table left behind").doesNotContainKey("Orders");
    }

    // E5: the running restore renews its stamp once a quarter of the limit has passed since the last one,
    // not before, and then counts from the new stamp.
    @Test
    void e5_theStampIsRenewedEveryQuarterOfTheLimit() {
        try (RestoreLoad load = rig.service.begin(Descriptions.request("acct", "Orders"), ORIGIN)) {
            Duration quarter = LIMIT.dividedBy(4);
            rig.clock.advance(quarter.minusNanos(1));
            load.write(items(0, 1));
            assertThat(rig.catalog.calls).as("[E5] no renewal before a quarter of the limit").noneMatch(c -> c.startsWith("renew"));
            rig.clock.advance(Duration.ofNanos(1));
            load.write(items(1, 2));
            assertThat(rig.catalog.rows.get("Orders").state()).as("[E5] renewed at a quarter of the limit")
                    .isEqualTo(new TableState.Restoring(T0.plus(quarter).plus(LIMIT)));
            rig.clock.advance(quarter.minusNanos(1));
            load.write(items(2, 3));
            assertThat(rig.catalog.calls.stream().filter(c -> c.startsWith("renew")))
                    .as("[E5] the next renewal counts from the last stamp").hasSize(1);
            rig.clock.advance(Duration.ofNanos(1));
            load.write(items(3, 4));
            assertThat(rig.catalog.rows.get("Orders").state())
                    .isEqualTo(new TableState.Restoring(T0.plus(quarter.multipliedBy(2)).plus(LIMIT)));
        }
    }

    private static List<Item> items(int from, int to) {
        return IntStream.range(from, to).mapToObj(i -> Item.of(Map.of("pk", new AttributeValue.S("k" + i)))).toList();
    }
}
