package dev.stillpoint.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.item.Item;
import dev.stillpoint.ports.in.StoredItem;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** The export's hand-off between its reading and writing threads: order, failures both ways, bounded. */
class HandOffTest {

    private record Text(String json) implements StoredItem {
        @Override
        public Item item() {
            throw new AssertionError("not decoded");
        }
    }

    /** Records what it is given; fails at item {@code failAt} (from 1) when positive. */
    private static final class Recording implements HandOff.Sink {
        final List<String> items = new ArrayList<>();
        final int failAt;
        int ends;

        Recording(int failAt) {
            this.failAt = failAt;
        }

        @Override
        public void accept(StoredItem item) throws IOException {
            if (items.size() + 1 == failAt) {
                throw new IOException("disk full at item " + failAt);
            }
            items.add(item.json());
        }

        @Override
        public void end() {
            ends++;
        }
    }

    @Test
    void everyItemArrivesInOrderAndTheDataIsEndedOnce() throws Exception {
        Recording sink = new Recording(0);
        HandOff handOff = new HandOff(sink);
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
        Recording sink = new Recording(1_000);
        HandOff handOff = new HandOff(sink);
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
    void abandonStopsAWriterPausedMidBatchWithoutEndingTheData() throws Exception {
        CountDownLatch paused = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        int[] ends = {0};
        HandOff handOff = new HandOff(new HandOff.Sink() {
            @Override
            public void accept(StoredItem item) throws IOException {
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
        });
        for (int i = 0; i < HandOff.BATCH_ITEMS; i++) {
            handOff.add(new Text("{}"));
        }
        paused.await();

        handOff.abandon();

        assertThat(handOff.writing()).isFalse();
        assertThat(ends[0]).isZero();
    }
}
