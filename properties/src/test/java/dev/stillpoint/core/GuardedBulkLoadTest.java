package dev.stillpoint.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.request.ItemWrite;
import dev.stillpoint.ports.out.BulkLoad;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The life the core keeps for every adapter's bulk load [B1], over a fake load (no database): one call at a
 * time, nothing but a close after a failure, a finish or a close, and the adapter's close reached once.
 */
class GuardedBulkLoadTest {

    /** Records every call that reaches it; the write fails when told, or waits for {@code release}. */
    private static final class FakeLoad implements BulkLoad {
        final List<String> calls = new CopyOnWriteArrayList<>();
        StorageException failWith;
        final CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(0);

        @Override
        public void write(List<ItemWrite> items) {
            calls.add("write");
            entered.countDown();
            await(release);
            if (failWith != null) {
                throw failWith;
            }
        }

        @Override
        public void finish() {
            calls.add("finish");
        }

        @Override
        public void close() {
            calls.add("close");
        }
    }

    @Test
    void afterAFailedWriteOnlyTheCloseReachesTheLoadAndEveryRefusalCarriesTheFirstFailure() {
        FakeLoad fake = new FakeLoad();
        fake.failWith = new StorageException(ErrorReason.TRANSIENT, "the disk went away");
        GuardedBulkLoad load = new GuardedBulkLoad(fake, "Restored");
        StorageException first = catchThrowableOfType(() -> load.write(List.of()), StorageException.class);
        assertThat(first).as("the adapter's own failure, unchanged").isSameAs(fake.failWith);
        assertThat(load.state()).isEqualTo(GuardedBulkLoad.State.BROKEN);
        for (Runnable call : List.<Runnable>of(() -> load.write(List.of()), load::finish)) {
            StorageException refused = catchThrowableOfType(call::run, StorageException.class);
            assertThat(refused.reason()).as("the first failure's reason").isEqualTo(ErrorReason.TRANSIENT);
            assertThat(refused).hasMessageContaining("table 'Restored'").hasMessageContaining("the disk went away")
                    .hasCause(fake.failWith);
        }
        load.close();
        load.close();
        assertThat(fake.calls).as("nothing reached the load after its failure but one close")
                .containsExactly("write", "close");
    }

    @Test
    void afterTheFinishOrACloseNoWriteReachesTheLoad() {
        FakeLoad finished = new FakeLoad();
        GuardedBulkLoad load = new GuardedBulkLoad(finished, "Restored");
        load.write(List.of());
        load.finish();
        assertThat(catchThrowableOfType(() -> load.write(List.of()), StorageException.class))
                .hasMessageContaining("it is finished").extracting(StorageException::reason)
                .isEqualTo(ErrorReason.VALIDATION);
        load.close();
        assertThat(finished.calls).containsExactly("write", "finish", "close");

        FakeLoad closed = new FakeLoad();
        GuardedBulkLoad other = new GuardedBulkLoad(closed, "Restored");
        other.close();
        assertThat(catchThrowableOfType(() -> other.write(List.of()), StorageException.class))
                .hasMessageContaining("it is closed");
        assertThat(catchThrowableOfType(other::finish, StorageException.class)).hasMessageContaining("it is closed");
        other.close();
        assertThat(closed.calls).as("one close reached the load").containsExactly("close");
    }

    @Test
    void aCloseFromAnotherThreadWaitsForTheWriteInProgress() throws Exception {
        FakeLoad fake = new FakeLoad();
        fake.release = new CountDownLatch(1);
        GuardedBulkLoad load = new GuardedBulkLoad(fake, "Restored");
        Thread writer = new Thread(() -> load.write(List.of()), "writer");
        writer.start();
        await(fake.entered);
        Thread closer = new Thread(load::close, "closer");
        closer.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        // Until it blocks on the write, or returns (a close that did not wait, which the next assertion names).
        while (closer.getState() != Thread.State.BLOCKED && closer.isAlive()) {
            assertThat(System.nanoTime() - deadline).as("the closer blocks on the write in progress").isNegative();
            Thread.onSpinWait();
        }
        assertThat(fake.calls).as("no close while the write runs").containsExactly("write");
        fake.release.countDown();
        writer.join(30_000);
        closer.join(30_000);
        assertThat(fake.calls).as("the close after the write it waited for").containsExactly("write", "close");
    }

    private static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(30, TimeUnit.SECONDS)).as("latch released within 30 s").isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
