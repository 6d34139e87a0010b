package dev.stillpoint.properties.machinery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.core.ItemWrites;
import dev.stillpoint.core.RestoreService;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.lifecycle.RestoreIdleLimit;
import dev.stillpoint.domain.lifecycle.TableState;
import dev.stillpoint.domain.request.ItemWrite;
import dev.stillpoint.domain.table.RestoreOrigin;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.in.RestoreLoad;
import dev.stillpoint.ports.out.BulkLoad;
import dev.stillpoint.ports.out.BulkLoads;
import dev.stillpoint.ports.out.StorageEvents;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A restore through a backend's bulk path [B1], over the restore's fakes (RestoreRig's catalog and clock)
 * and a fake load that writes into the same calls log as the catalog: the items go to the load and not
 * through the units of item work, each chunk is told [X1] and renews the restore's stamp [E5], the load is
 * finished before the table is ACTIVE, and a closed restore's load is closed before its table is dropped.
 */
class RestoreBulkPathTest {

    private static final RestoreOrigin ORIGIN = new RestoreOrigin(Optional.of("arn:source"),
            RestoreRig.T0.minusSeconds(3600));

    private final RestoreRig rig = new RestoreRig();
    private final List<Integer> told = new ArrayList<>();
    private final List<ItemWrite> loaded = new ArrayList<>();
    private final BulkLoads loads = table -> new BulkLoad() {
        @Override
        public void write(List<ItemWrite> items) {
            rig.catalog.calls.add("load-write " + items.size());
            loaded.addAll(items);
        }

        @Override
        public void finish() {
            TableState state = rig.catalog.rows.get(table.tableName()).state();
            rig.catalog.calls.add("load-finish while " + state.getClass().getSimpleName());
        }

        @Override
        public void close() {
            rig.catalog.calls.add("load-close");
        }
    };
    private final RestoreService service = new RestoreService(rig.catalog, rig.storage, new ItemWrites(rig.storage),
            rig.deletion, rig.clock, new RestoreIdleLimit(RestoreRig.LIMIT), new StorageEvents() {
                @Override
                public void restored(int items) {
                    told.add(items);
                }
            }, Optional.of(loads));

    private static List<Item> items(int n) {
        return IntStream.range(0, n).mapToObj(i -> Item.of(Map.of("pk", new AttributeValue.S("k" + i)))).toList();
    }

    // B3: a restore offers as many concurrent writers as the backend's bulk path has loads, and one where the
    // backend has no bulk path (its writes go through the units of item work, one at a time).
    @Test
    void b3_aRestoreOffersTheBulkPathsWriters() {
        BulkLoads three = new BulkLoads() {
            @Override
            public BulkLoad open(TableDescription table) {
                return loads.open(table);
            }

            @Override
            public int writers() {
                return 3;
            }
        };
        RestoreService bulk = new RestoreService(rig.catalog, rig.storage, new ItemWrites(rig.storage), rig.deletion,
                rig.clock, new RestoreIdleLimit(RestoreRig.LIMIT), StorageEvents.NONE, Optional.of(three));
        RestoreService oneByOne = new RestoreService(rig.catalog, rig.storage, new ItemWrites(rig.storage),
                rig.deletion, rig.clock, new RestoreIdleLimit(RestoreRig.LIMIT), StorageEvents.NONE, Optional.empty());
        try (RestoreLoad load = bulk.begin(Descriptions.request("acct", "Bulk"), ORIGIN)) {
            assertThat(load.concurrentWriters()).as("[B3] the bulk path's writers").isEqualTo(3);
        }
        try (RestoreLoad load = oneByOne.begin(Descriptions.request("acct", "OneByOne"), ORIGIN)) {
            assertThat(load.concurrentWriters()).as("[B3] one writer without a bulk path").isEqualTo(1);
        }
    }

    // B1, E4: the items reach the load, none through the units of item work; the load is finished while the
    // table is still restoring, and only then is it ACTIVE (a crash between the two leaves a CREATING table).
    @Test
    void b1_theItemsGoThroughTheLoadWhichIsFinishedBeforeTheTableIsActive() {
        RestoreLoad load = service.begin(Descriptions.request("acct", "Orders"), ORIGIN);
        load.write(items(3));
        TableDescription done = load.complete();

        assertThat(loaded).as("[B1] the three items reached the load").hasSize(3);
        assertThat(rig.storage.writeSizes).as("[B1] none went through the units of item work").isEmpty();
        assertThat(rig.catalog.calls).as("[B1, E5] the load finished while the table restores, then completed")
                .containsSubsequence("load-write 3", "load-finish while Restoring", "complete Orders");
        assertThat(done.status()).isEqualTo(TableStatus.ACTIVE);
    }

    // X1, E5: each chunk written is told with its size, and a chunk written after a quarter of the idle limit
    // renews the restore's stamp, so a long bulk load is not taken for dead.
    @Test
    void x1_e5_eachChunkIsToldAndRenewsTheRestoresStamp() {
        try (RestoreLoad load = service.begin(Descriptions.request("acct", "Orders"), ORIGIN)) {
            rig.clock.advance(RestoreRig.LIMIT.dividedBy(2));
            load.write(items(5));

            assertThat(told).as("[X1] the chunk's items told").containsExactly(5);
            assertThat(rig.catalog.calls).as("[E5] the stamp renewed after the chunk")
                    .containsSubsequence("load-write 5", "renew Orders");
            assertThat(rig.catalog.rows.get("Orders").state()).as("[E5] alive until now + the limit")
                    .isEqualTo(new TableState.Restoring(RestoreRig.T0.plus(RestoreRig.LIMIT.dividedBy(2))
                            .plus(RestoreRig.LIMIT)));
        }
    }

    // B1, E5: closing a restore that did not complete closes its load first (an open load holds the
    // relations' locks, behind which the drop would wait), then removes the table.
    @Test
    void b1_closingARestoreClosesItsLoadBeforeItsTableIsDropped() {
        RestoreLoad load = service.begin(Descriptions.request("acct", "Orders"), ORIGIN);
        load.write(items(2));
        load.close();

        assertThat(rig.catalog.calls).as("[B1, E5] the load closed, then the table dropped")
                .containsSubsequence("load-close", "drop Orders");
        assertThat(rig.catalog.rows).as("[E5] no table left behind").doesNotContainKey("Orders");
    }

    // X1: without a bulk path each unit of work is told with its own size (100 items, then the rest).
    @Test
    void x1_withoutABulkPathEachUnitOfWorkIsToldWithItsSize() {
        RestoreService plain = new RestoreService(rig.catalog, rig.storage, new ItemWrites(rig.storage), rig.deletion,
                rig.clock, new RestoreIdleLimit(RestoreRig.LIMIT), new StorageEvents() {
                    @Override
                    public void restored(int items) {
                        told.add(items);
                    }
                });
        try (RestoreLoad load = plain.begin(Descriptions.request("acct", "Orders"), ORIGIN)) {
            load.write(items(150));
            assertThat(rig.storage.writeSizes).as("two units of work").containsExactly(100, 50);
            assertThat(told).as("[X1] each unit of work told with its size").containsExactly(100, 50);
        }
    }
}
