package dev.stillpoint.backup;

import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.in.ItemStream;
import dev.stillpoint.ports.in.SegmentedSnapshot;
import dev.stillpoint.ports.in.SnapshotEngine;
import dev.stillpoint.ports.in.SnapshotInfo;
import dev.stillpoint.ports.in.StoredKeys;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code export -j N} [B3]: one segmented snapshot of N segments (one instant, disjoint key ranges whose
 * union is the single stream's items [B2]), each segment read by a thread of its own and written, through
 * its own {@link HandOff} and {@link CheckedLines}, to its own lane of the layout (our layout: one data file
 * per segment; DynamoDB's: the segment's own data files). So the output holds exactly the items of
 * {@code -j 1} at that instant, each file in key order where the backend orders keys.
 *
 * <p>The first failure of any segment (a refused item, an I/O error) stops the others at their next item; every
 * segment thread and writing thread has ended, and every segment's permit is back, before the failure is thrown.
 * As for one stream, the manifest is written only once every lane has ended, and a failure leaves no temp file.
 */
final class SegmentedExport {

    private SegmentedExport() {
    }

    static ExportResult export(SnapshotEngine engine, String account, String table, Path dir, ExportOptions options,
                               ExportListener listener, ExportTemps temps) {
        long started = System.nanoTime();
        int n = options.segments();
        LayoutWriter writer = null;
        try {
            writer = TableExport.layout(dir, options, temps);
            Instant openedAt = Instant.now();
            TableDescription description;
            SnapshotInfo info;
            boolean keyOrdered;
            long count;
            try (SegmentedSnapshot snapshot = engine.openTableSnapshot(account, table, StoredKeys.INCLUDED, n)) {
                description = snapshot.description();
                info = snapshot.info();
                keyOrdered = snapshot.keyOrdered();
                listener.opened(info);
                snapshot.itemCount().ifPresent(listener::counted);
                count = readAll(snapshot, writer, options.checkItems(), new Progress(listener), table);
            }
            listener.finished(count);
            LayoutWriter.Written written = writer.commit(account, description, info, keyOrdered, openedAt);
            return new ExportResult(options.format(), description, info, keyOrdered, count, written.bytes(),
                    written.sha256(), written.dataFiles(), written.manifest(), openedAt,
                    Duration.ofNanos(System.nanoTime() - started));
        } catch (IOException e) {
            throw new BackupFailure(BackupFailure.Problem.OUTPUT, "cannot write the export to " + dir + ": "
                    + TableExport.reason(e), e);
        } catch (ItemCheck.Failed e) {
            throw new BackupFailure(BackupFailure.Problem.CORRUPT_ITEM, e.getMessage() + "; export stopped, no manifest"
                    + " written", e);
        } finally {
            if (writer != null) {
                writer.closeQuietly();
            }
            temps.removeLeftovers();
        }
    }

    /** Every segment on its own thread into its lane; the items written in all. */
    private static long readAll(SegmentedSnapshot snapshot, LayoutWriter writer, boolean checkItems, Progress progress,
                                String table) throws IOException {
        List<ItemStream> segments = snapshot.segments();
        Stop stop = new Stop();
        AtomicInteger named = new AtomicInteger();
        ExecutorService threads = Executors.newFixedThreadPool(segments.size(), r -> {
            Thread t = new Thread(r, "stillpoint-export-segment-" + named.getAndIncrement());
            t.setDaemon(true); // a JVM stopped by a signal does not wait for it: ExportTemps removes its files
            return t;
        });
        try {
            List<Future<Long>> lanes = new ArrayList<>();
            for (int i = 0; i < segments.size(); i++) {
                ItemStream items = segments.get(i);
                CheckedLines lines = new CheckedLines(writer.lane(i),
                        checkItems ? () -> new ItemCheck(snapshot.description()) : null, progress);
                lanes.add(threads.submit(() -> stop.guard(() -> lane(items, lines, segments.size(), stop))));
            }
            long count = 0;
            for (Future<Long> lane : lanes) {
                count += lane.get();
            }
            stop.rethrow();
            return count;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stop.failed(new BackupFailure(BackupFailure.Problem.INTERRUPTED, "the export was interrupted", e));
            throw stop.first();
        } catch (ExecutionException e) {
            stop.rethrow();
            throw new IllegalStateException("a segment of the export of '" + table + "' failed", e.getCause());
        } finally {
            threads.shutdownNow(); // wakes a segment waiting on its hand-off; each then abandons its writing thread
            FileLanes.awaitEnd(threads);
        }
    }

    /** One segment: read on this thread, checked and written on its hand-off's threads; its permit returned at the end. */
    private static long lane(ItemStream items, CheckedLines lines, int lanes, Stop stop) throws IOException, InterruptedException {
        HandOff<CheckedLines.Batch> handOff = new HandOff<>(lines, HandOff.checkersPerLane(lanes));
        try (items) {
            while (!stop.stopped() && items.hasNext() && handOff.add(items.next())) {
                // The hand-off's threads check and write; they stop this loop when one fails.
            }
        } catch (RuntimeException | Error e) {
            handOff.abandon();
            throw e;
        }
        if (stop.stopped()) {
            handOff.abandon();
            return 0;
        }
        try {
            handOff.finish();
        } finally {
            handOff.abandon();
        }
        return lines.count();
    }


    /** The export's first failure, which every other segment sees at its next item and stops. */
    private static final class Stop {
        private volatile boolean stopped;
        private Throwable first;

        boolean stopped() {
            return stopped;
        }

        synchronized void failed(Throwable t) {
            if (first == null) {
                first = t;
            }
            stopped = true;
        }

        interface Work {
            long run() throws IOException, InterruptedException;
        }

        long guard(Work work) throws Exception {
            try {
                return work.run();
            } catch (IOException | RuntimeException | Error | InterruptedException e) {
                failed(e);
                throw e;
            }
        }

        synchronized RuntimeException first() {
            return first instanceof RuntimeException r ? r : new UncheckedIOException("export failed",
                    first instanceof IOException io ? io : new IOException(first));
        }

        synchronized void rethrow() throws IOException {
            if (first instanceof IOException e) {
                throw e;
            }
            if (first instanceof RuntimeException e) {
                throw e;
            }
            if (first instanceof Error e) {
                throw e;
            }
            if (first instanceof InterruptedException e) {
                throw new BackupFailure(BackupFailure.Problem.INTERRUPTED, "the export was interrupted", e);
            }
        }
    }

    /**
     * The listener told by every segment's writing thread: one running total, told under one lock, so the
     * listener sees the count rise one by one as it would from one thread.
     */
    private static final class Progress implements ExportListener {
        private final ExportListener listener;
        private long written;

        Progress(ExportListener listener) {
            this.listener = listener;
        }

        @Override
        public synchronized void exported(long items) {
            listener.exported(++written);
        }
    }
}
