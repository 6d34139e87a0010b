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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/**
 * What a closed storage answers, checked the same way on each backend's real database [D10, R6]: a snapshot
 * stream read on past the close, PutItem, DescribeTable and a snapshot opened after it each fail TRANSIENT
 * saying the storage is closed (never the driver's words for a closed connection, never "unreachable"); the
 * pages the stream read before the close are delivered.
 */
public final class ClosedStorageAnswers {

    /** Counts the pages streamed down from two: the stream's first page and the one read ahead. */
    private final CountDownLatch twoPages = new CountDownLatch(2);

    /** The events to open the storage with, so {@link #check} knows when no read ahead is in flight. */
    public StorageEvents events() {
        return new StorageEvents() {
            @Override
            public void pageStreamed(Page page) {
                twoPages.countDown();
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
        assertThat(twoPages.await(30, TimeUnit.SECONDS)).as("the first page and the one read ahead fetched").isTrue();

        storage.close();

        int[] delivered = {read};
        refused(() -> {
            while (stream.hasNext()) {
                stream.next();
                delivered[0]++;
            }
        }, "the stream read on past the close", streamSays);
        assertThat(delivered[0]).as("the pages read before the close, delivered; not the whole table")
                .isGreaterThan(10).isLessThan(items);
        snapshot.close();
        refused(() -> storage.tables().putItem(account, table, late), "PutItem after close", "is closed");
        refused(() -> storage.tables().describeTable(account, table), "DescribeTable after close", "is closed");
        refused(() -> storage.snapshots().openTableSnapshot(account, table), "a snapshot opened after close",
                "its storage is closed");
    }

    private static void refused(ThrowingCallable call, String what, String saying) {
        assertThat(catchThrowable(call)).as(what).isInstanceOfSatisfying(StorageException.class, e -> {
            assertThat(e.reason()).as(what + ": " + e.getMessage()).isEqualTo(ErrorReason.TRANSIENT);
            assertThat(e.getMessage()).as(what).contains(saying).doesNotContain("unreachable");
        });
    }
}
