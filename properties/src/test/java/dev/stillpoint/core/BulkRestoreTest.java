package dev.stillpoint.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.request.ItemWrite;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.out.BulkLoad;
import dev.stillpoint.ports.out.BulkLoads;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The core's side of a restore's bulk path [B1] over a fake load (no database): the chunks a write is cut
 * into (at most {@link BulkRestore#CHUNK_ITEMS} items, about {@link BulkRestore#CHUNK_BYTES}), the sign of
 * life after each, and that a load that failed, or a restore that was closed, writes and finishes nothing.
 * The adapters' loads are tested on their databases (PostgresBulkRestoreTest, SqliteBulkRestoreTest).
 */
class BulkRestoreTest {

    private static final TableDescription RESTORING = new CreateTableRequest("acct", "Restored",
            KeySchema.hashOnly("pk"), List.of(new AttributeDefinition("pk", ScalarType.S)), List.of(), List.of(),
            Optional.empty()).describe("id-restored", "arn:stillpoint:acct:table/Restored",
            Instant.parse("2026-01-01T00:00:00Z"));

    /** A load recording what reaches it; fails the write numbered {@code failOnWrite} (from 0). */
    private static final class FakeLoads implements BulkLoads {
        final List<List<ItemWrite>> chunks = new ArrayList<>();
        int opened;
        int finished;
        int closed;
        int failOnWrite = -1;

        @Override
        public BulkLoad open(TableDescription table) {
            opened++;
            return new BulkLoad() {
                @Override
                public void write(List<ItemWrite> items) {
                    if (chunks.size() == failOnWrite) {
                        chunks.add(List.of());
                        throw new StorageException(ErrorReason.TRANSIENT, "this fake load fails on write " + failOnWrite);
                    }
                    chunks.add(List.copyOf(items));
                }

                @Override
                public void finish() {
                    finished++;
                }

                @Override
                public void close() {
                    closed++;
                }
            };
        }
    }

    private static List<Item> items(int n, String padding) {
        List<Item> items = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            items.add(Item.of(Map.of("pk", AttributeValue.s("k" + i), "v", AttributeValue.s(padding))));
        }
        return items;
    }

    // B1: a write is handed to the load in chunks of at most CHUNK_ITEMS items, every item once and in order,
    // and the restore is told after each chunk how many items it held (its sign of life [E5] and progress).
    @Test
    void b1_aWriteIsCutIntoChunksOfAtMostTenThousandItemsEachToldOnceWritten() {
        FakeLoads loads = new FakeLoads();
        BulkRestore restore = new BulkRestore(loads, RESTORING);
        List<Integer> told = new ArrayList<>();
        int n = 2 * BulkRestore.CHUNK_ITEMS + 1;

        restore.write(items(n, "x"), told::add);

        assertThat(loads.chunks.stream().map(List::size).toList())
                .as("[B1] chunks of %d items, the rest in the last", BulkRestore.CHUNK_ITEMS)
                .containsExactly(BulkRestore.CHUNK_ITEMS, BulkRestore.CHUNK_ITEMS, 1);
        assertThat(told).as("[B1, E5] each chunk's size told once it is written").containsExactly(
                BulkRestore.CHUNK_ITEMS, BulkRestore.CHUNK_ITEMS, 1);
        assertThat(loads.chunks.stream().flatMap(List::stream).map(w -> w.item().attributes().get("pk")).toList())
                .as("[B1] every item once, in order").isEqualTo(items(n, "x").stream().map(i -> i.attributes().get("pk")).toList());
        assertThat(loads.opened).as("one load for the restore").isEqualTo(1);
    }

    // B1: large items make smaller chunks: a chunk stops once it holds CHUNK_BYTES (its last item may cross it).
    @Test
    void b1_largeItemsAreCutIntoChunksOfAboutSixteenMebibytes() {
        FakeLoads loads = new FakeLoads();
        BulkRestore restore = new BulkRestore(loads, RESTORING);
        String large = "x".repeat(300_000);
        List<Item> batch = items(120, large);
        long itemBytes = batch.get(0).sizeInBytes();

        restore.write(batch, n -> { });

        assertThat(loads.chunks).as("[B1] 120 items of %d bytes do not fit one chunk of %d bytes", itemBytes,
                BulkRestore.CHUNK_BYTES).hasSizeGreaterThan(1);
        for (List<ItemWrite> chunk : loads.chunks) {
            long bytes = chunk.stream().mapToLong(w -> w.item().sizeInBytes()).sum();
            assertThat(bytes).as("[B1] a chunk holds at most CHUNK_BYTES plus the item that crossed it")
                    .isLessThan(BulkRestore.CHUNK_BYTES + itemBytes);
        }
        assertThat(loads.chunks.stream().mapToInt(List::size).sum()).as("every item once").isEqualTo(120);
    }

    // B1, V2, R6: an item that breaks PutItem's rules is refused before any chunk reaches the load, the
    // message naming the table and the item's place in the batch; nothing of the batch is written.
    @Test
    void b1_anItemBreakingTheRulesIsRefusedByItsPlaceInTheBatchBeforeAnythingIsWritten() {
        FakeLoads loads = new FakeLoads();
        BulkRestore restore = new BulkRestore(loads, RESTORING);
        List<Item> batch = new ArrayList<>(items(5, "x"));
        batch.set(2, Item.of(Map.of("pk", AttributeValue.n("7"))));

        StorageException refused = catchThrowableOfType(StorageException.class, () -> restore.write(batch, n -> { }));

        assertThat(refused).as("[V2] the rules run on a bulk restore too").isNotNull();
        assertThat(refused.reason()).isEqualTo(ErrorReason.VALIDATION);
        assertThat(refused.getMessage()).as("[R6] names the table and the item's place")
                .startsWith("restore into table 'Restored', item 3 of 5: ");
        assertThat(loads.chunks).as("nothing of the batch reached the load").isEmpty();
    }

    // B1, E5: after the load failed, nothing more reaches it: a later write and the finish are refused, so a
    // restore whose items did not all arrive never completes (the table would be ACTIVE without them).
    @Test
    void b1_afterTheLoadFailedNoWriteAndNoFinishReachesIt() {
        FakeLoads loads = new FakeLoads();
        loads.failOnWrite = 1;
        BulkRestore restore = new BulkRestore(loads, RESTORING);
        List<Integer> told = new ArrayList<>();

        StorageException failed = catchThrowableOfType(StorageException.class,
                () -> restore.write(items(BulkRestore.CHUNK_ITEMS + 5, "x"), told::add));
        assertThat(failed).as("the load's failure reaches the restore").isNotNull();
        assertThat(failed.getMessage()).as("naming the table and the chunk's items")
                .contains("'Restored'", "items 10001-10005 of 10005", "fails on write 1");
        assertThat(told).as("[E5] only the written chunk told").containsExactly(BulkRestore.CHUNK_ITEMS);

        StorageException finish = catchThrowableOfType(StorageException.class, restore::finish);
        assertThat(finish).as("[B1, E5] a restore whose load failed cannot finish").isNotNull();
        assertThat(finish.reason()).isEqualTo(ErrorReason.TRANSIENT);
        assertThat(finish.getMessage()).contains("its load failed earlier");
        assertThat(loads.finished).as("[B1, E5] the broken load is never finished").isZero();

        StorageException again = catchThrowableOfType(StorageException.class, () -> restore.write(items(1, "x"), n -> { }));
        assertThat(again).as("[B1] nor written to again").isNotNull();
        assertThat(loads.chunks).as("[B1] nothing reached the load after its failure").hasSize(2);
    }

    // B1: a restore closed (interrupted, its table about to be removed) opens no load afterwards: a write
    // from a thread that was still running would otherwise put items into a table being dropped.
    @Test
    void b1_aClosedRestoreOpensNoLoadAndWritesNothing() {
        FakeLoads loads = new FakeLoads();
        BulkRestore restore = new BulkRestore(loads, RESTORING);
        restore.close();

        StorageException refused = catchThrowableOfType(StorageException.class, () -> restore.write(items(3, "x"), n -> { }));

        assertThat(refused).as("[B1] a write after close is refused").isNotNull();
        assertThat(refused.getMessage()).contains("it was closed");
        assertThat(loads.opened).as("[B1] no load opened after the restore was closed").isZero();
        assertThat(catchThrowableOfType(StorageException.class, restore::finish))
                .as("[B1] nor does it finish after the refused write").isNotNull();
        assertThat(loads.finished).as("no load to finish").isZero();
    }

    // B1: close closes the load it opened; a finished restore's load is finished once.
    @Test
    void b1_finishFinishesTheLoadOnceAndCloseClosesIt() {
        FakeLoads loads = new FakeLoads();
        BulkRestore restore = new BulkRestore(loads, RESTORING);
        restore.write(items(3, "x"), n -> { });
        restore.finish();
        restore.close();
        assertThat(loads.finished).as("[B1] the load finished once").isEqualTo(1);
        assertThat(loads.closed).as("[B1] and closed").isEqualTo(1);
    }
}
