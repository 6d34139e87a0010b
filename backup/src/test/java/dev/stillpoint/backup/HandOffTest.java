package dev.stillpoint.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.item.Item;
import dev.stillpoint.ports.in.StoredItem;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** The export's hand-off between its reading, checking and writing threads: order, failures every way, bounded. */
class HandOffTest {

    private record Text(String json) implements StoredItem {
        @Override
        public Item item() {
            throw new AssertionError("not decoded");
        }
    }

    /**
     * Records what it is given, in the order written; fails writing item {@code failAt} (from 1) when positive,
     * and refuses to prepare item {@code refuseAt} when positive. Prepares each batch on whatever checking
     * thread takes it, noting the thread.
     */
    private static final class Recording implements HandOff.Sink<List<String>> {
        final List<String> items = new ArrayList<>();
        final Set<String> checkingThreads = ConcurrentHashMap.newKeySet();
        final int failAt;
        final int refuseAt;
        int ends;

        Recording(int failAt, int refuseAt) {
            this.failAt = failAt;
            this.refuseAt = refuseAt;
        }

        @Override
        public List<String> prepare(StoredItem[] batch, long first) {
            checkingThreads.add(Thread.currentThread().getName());
            List<String> lines = new ArrayList<>();
            for (int i = 0; i < batch.length; i++) {
                if (first + i == refuseAt) {
                    throw new IllegalStateException("refused item " + refuseAt);
                }
                lines.add(batch[i].json());
            }
            return lines;
        }

        @Override
        public void write(List<String> batch) throws IOException {
            for (String line : batch) {
                if (items.size() + 1 == failAt) {
                    throw new IOException("disk full at item " + failAt);
                }
                items.add(line);
            }
        }

        @Override
        public void end() {
            ends++;
        }
    }

    @Test
    void everyItemArrivesInOrderAndTheDataIsEndedOnce() throws Exception {
        Recording sink = new Recording(0, 0);
        HandOff<List<String>> handOff = new HandOff<>(sink, 3);
        List<String> sent = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            String json = "{\"i\":" + i + (i % 97 == 0 ? "x".repeat(300_000) : "") + "}"; // some large: byte-bounded batches
            sent.add(json);
            assertThat(handOff.add(new Text(json))).isTrue();
        }
        handOff.finish();

        assertThat(sink.items).isEqualTo(sent);
        assertThat(sink.ends).isEqualTo(1);
        assertThat(handOff.writing()).isFalse();
    }

    @Test
    void theWritersFailureStopsTheReaderAndIsThrownWithoutEndingTheData() throws Exception {
        Recording sink = new Recording(1_000, 0);
        HandOff<List<String>> handOff = new HandOff<>(sink, 2);
        int added = 0;
        while (added < 1_000_000 && handOff.add(new Text("{\"i\":" + added + "}"))) {
            added++;
        }

        assertThat(added).as("the reader stops within a few batches of the failure")
                .isLessThan(1_000 + (HandOff.DEPTH + 2) * HandOff.BATCH_ITEMS);
        assertThatThrownBy(handOff::finish).isInstanceOf(IOException.class).hasMessage("disk full at item 1000");
        assertThat(sink.items).hasSize(999);
        assertThat(sink.ends).isZero();
        assertThat(handOff.writing()).isFalse();
    }

    @Test
    void batchesPreparedOnSeveralThreadsAreWrittenInTheOrderRead() throws Exception {
        Recording sink = new Recording(0, 0);
        HandOff<List<String>> handOff = new HandOff<>(sink, 4);
        List<String> sent = new ArrayList<>();
        for (int i = 0; i < 200 * HandOff.BATCH_ITEMS + 7; i++) {
            sent.add("{\"i\":" + i + "}");
            assertThat(handOff.add(new Text(sent.get(i)))).isTrue();
        }
        handOff.finish();

        assertThat(sink.items).isEqualTo(sent);
        assertThat(sink.checkingThreads).as("prepared off the reading thread")
                .allMatch(t -> t.startsWith("stillpoint-export-check-")).hasSizeLessThanOrEqualTo(4);
        assertThat(handOff.writing()).as("no thread outlives finish").isFalse();
    }

    @Test
    void aFailedPreparationStopsTheReaderAndIsThrownAfterTheBatchesBeforeItAreWritten() throws Exception {
        int refuseAt = 10 * HandOff.BATCH_ITEMS + 5;
        Recording sink = new Recording(0, refuseAt);
        HandOff<List<String>> handOff = new HandOff<>(sink, 2);
        int added = 0;
        while (added < 1_000_000 && handOff.add(new Text("{\"i\":" + added + "}"))) {
            added++;
        }

        assertThat(added).as("the reader stops within a few batches of the failure")
                .isLessThan(refuseAt + (HandOff.DEPTH + 3) * HandOff.BATCH_ITEMS);
        assertThatThrownBy(handOff::finish).isInstanceOf(IllegalStateException.class).hasMessage("refused item " + refuseAt);
        assertThat(sink.items).as("every batch before the refused one, none after").hasSize(10 * HandOff.BATCH_ITEMS);
        assertThat(sink.ends).isZero();
        assertThat(handOff.writing()).isFalse();
    }

    @Test
    void abandonStopsAWriterPausedMidBatchWithoutEndingTheData() throws Exception {
        CountDownLatch paused = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        int[] ends = {0};
        HandOff<StoredItem[]> handOff = new HandOff<>(new HandOff.Sink<StoredItem[]>() {
            @Override
            public StoredItem[] prepare(StoredItem[] batch, long first) {
                return batch;
            }

            @Override
            public void write(StoredItem[] batch) throws IOException {
                paused.countDown();
                try {
                    never.await();
                } catch (InterruptedException e) {
                    throw new InterruptedIOException("abandoned");
                }
            }

            @Override
            public void end() {
                ends[0]++;
            }
        }, 2);
        for (int i = 0; i < HandOff.BATCH_ITEMS; i++) {
            handOff.add(new Text("{}"));
        }
        paused.await();

        handOff.abandon();

        assertThat(handOff.writing()).isFalse();
        assertThat(ends[0]).isZero();
    }
}
