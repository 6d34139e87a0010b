package dev.stillpoint.properties.closing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.ports.in.ItemStream;
import dev.stillpoint.ports.in.Storage;
import dev.stillpoint.ports.in.TableSnapshot;
import dev.stillpoint.ports.out.Page;
import dev.stillpoint.ports.out.StorageEvents;
import dev.stillpoint.ports.in.SegmentedSnapshot;
import dev.stillpoint.ports.in.StoredKeys;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/**
 * What a closed storage answers, checked the same way on each backend's real database [D10, R6]: a snapshot
 * stream read on past the close, PutItem, DescribeTable and a snapshot opened after it each fail TRANSIENT
 * saying the storage is closed (never the driver's words for a closed connection, never "unreachable"); the
 * pages the stream read before the close are delivered. The same holds for each segment of a segmented
 * snapshot [B2].
 */
public final class ClosedStorageAnswers {

    /** One permit a page streamed: a stream's first page and the one it reads ahead make two. */
    private final Semaphore pagesStreamed = new Semaphore(0);

    /** The events to open the storage with, so the checks know when no read ahead is in flight. */
    public StorageEvents events() {
        return new StorageEvents() {
            @Override
            public void pageStreamed(Page page) {
                pagesStreamed.release();
            }
        };
    }

    /**
     * Streams 10 items of {@code table} (holding {@code items} items, over two pages), closes {@code storage},
     * and checks every answer after it; {@code streamSays} is what the stream's refusal names.
     */
    public void check(Storage storage, String account, String table, int items, Item late, String streamSays)
            throws InterruptedException {
        TableSnapshot snapshot = storage.snapshots().openTableSnapshot(account, table);
        ItemStream stream = snapshot.items();
        int read = 0;
        while (read < 10 && stream.hasNext()) {
            stream.next();
            read++;
        }
        assertThat(pagesStreamed.tryAcquire(2, 30, TimeUnit.SECONDS)).as("the first page and the one read ahead fetched")
                .isTrue();

        storage.close();

        long delivered = read + drainedUntilRefused(stream, "the stream read on past the close", streamSays);
        assertThat(delivered).as("the pages read before the close, delivered; not the whole table")
                .isGreaterThan(10).isLessThan(items);
        snapshot.close();
        refused(() -> storage.tables().putItem(account, table, late), "PutItem after close", "is closed");
        refused(() -> storage.tables().describeTable(account, table), "DescribeTable after close", "is closed");
        refused(() -> storage.snapshots().openTableSnapshot(account, table), "a snapshot opened after close",
                "its storage is closed");
    }

    /** Reads {@code stream} on until it is refused as {@link #refused} checks; the items it delivered first. */
    private static long drainedUntilRefused(ItemStream stream, String what, String saying) {
        long[] delivered = {0};
        refused(() -> {
            while (stream.hasNext()) {
                stream.next();
                delivered[0]++;
            }
        }, what, saying);
        return delivered[0];
    }

    private static void refused(ThrowingCallable call, String what, String saying) {
        assertThat(catchThrowable(call)).as(what).isInstanceOfSatisfying(StorageException.class, e -> {
            assertThat(e.reason()).as(what + ": " + e.getMessage()).isEqualTo(ErrorReason.TRANSIENT);
            assertThat(e.getMessage()).as(what).contains(saying).doesNotContain("unreachable");
        });
    }

    /**
     * Opens {@code table} (holding {@code items} items, over at least three pages a segment) in two segments,
     * reads 10 items of each, closes {@code storage}: each segment read on past the close is refused TRANSIENT
     * naming {@code streamSays}, after the pages it read before the close.
     */
    public void checkSegments(Storage storage, String account, String table, int items, String streamSays)
            throws InterruptedException {
        SegmentedSnapshot snapshot = storage.snapshots().openTableSnapshot(account, table, StoredKeys.OMITTED, 2);
        for (ItemStream segment : snapshot.segments()) {
            for (int i = 0; i < 10; i++) {
                segment.next();
            }
        }
        assertThat(pagesStreamed.tryAcquire(4, 30, TimeUnit.SECONDS))
                .as("each segment's first page and the one it read ahead fetched").isTrue();

        storage.close();

        long delivered = 0;
        for (ItemStream segment : snapshot.segments()) {
            delivered += drainedUntilRefused(segment, "a segment read on past the close", streamSays);
        }
        assertThat(delivered).as("the pages read before the close, delivered; not the whole table")
                .isGreaterThan(0).isLessThan(items - 20);
        snapshot.close();
    }
}
