package dev.stillpoint.backup;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code restore -j N} [B3]: the files of a checked export read again by N threads, file i by lane i mod N,
 * each file read, checked and handed over by one thread. The first failure of any file is the load's: the
 * other lanes stop at their next item ({@link #stopped}), no file is begun after it, and every lane thread
 * has ended before it is thrown.
 */
final class FileLanes {

    /** One file's reading. */
    interface FileWork {
        void run(int file);
    }

    private volatile boolean stopped;

    private FileLanes() {
    }

    /**
     * Runs {@code work} for files 0..{@code files}-1 on {@code lanes} threads.
     *
     * @param files how many files
     * @param lanes threads, at least 1
     * @param work  one file's reading, told whether to stop through {@link #stopped}
     */
    static void run(int files, int lanes, java.util.function.Function<FileLanes, FileWork> work) {
        FileLanes shared = new FileLanes();
        FileWork perFile = work.apply(shared);
        AtomicInteger named = new AtomicInteger();
        ExecutorService threads = Executors.newFixedThreadPool(lanes, r -> {
            Thread t = new Thread(r, "stillpoint-restore-lane-" + named.getAndIncrement());
            t.setDaemon(true);
            return t;
        });
        List<Future<?>> running = new ArrayList<>();
        java.util.concurrent.atomic.AtomicReference<Throwable> first = new java.util.concurrent.atomic.AtomicReference<>();
        try {
            for (int lane = 0; lane < lanes; lane++) {
                int mine = lane;
                running.add(threads.submit(() -> {
                    for (int f = mine; f < files && !shared.stopped; f += lanes) {
                        try {
                            perFile.run(f);
                        } catch (Stopped s) {
                            return; // another lane failed first: its failure is the load's
                        } catch (RuntimeException | Error e) {
                            first.compareAndSet(null, e);
                            shared.stopped = true;
                            return;
                        }
                    }
                }));
            }
            for (Future<?> lane : running) {
                lane.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            first.compareAndSet(null, new BackupFailure(BackupFailure.Problem.INTERRUPTED, "the restore was interrupted", e));
        } catch (ExecutionException e) {
            first.compareAndSet(null, e.getCause()); // not thrown by the lanes, which keep their failures
        } finally {
            shared.stopped = true;
            threads.shutdown();
            awaitEnd(threads);
        }
        Throwable failure = first.get();
        if (failure instanceof RuntimeException r) {
            throw r;
        }
        if (failure instanceof Error e) {
            throw e;
        }
        if (failure != null) {
            throw new IllegalStateException("a restore lane failed", failure);
        }
    }

    /** Thrown inside a file's reading once another lane failed: that lane's failure is the one reported. */
    static final class Stopped extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Stopped() {
            super("stopped: another file of the restore failed", null, false, false);
        }
    }

    /** Throws {@link Stopped} once another lane failed; called before each item is handed over. */
    void requireGoing() {
        if (stopped) {
            throw new Stopped();
        }
    }

    /**
     * Whether another lane failed: a file being read stops at its next item.
     *
     * @return true once any lane failed
     */
    boolean stopped() {
        return stopped;
    }

    /** Waits for every thread of {@code threads}, however often this thread is interrupted meanwhile. */
    static void awaitEnd(ExecutorService threads) {
        boolean interrupted = false;
        while (true) {
            try {
                if (threads.awaitTermination(1, TimeUnit.MINUTES)) {
                    break;
                }
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
