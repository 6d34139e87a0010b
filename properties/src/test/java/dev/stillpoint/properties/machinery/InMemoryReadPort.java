package dev.stillpoint.properties.machinery;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.in.SnapshotInfo;
import dev.stillpoint.ports.in.StoredKeys;
import dev.stillpoint.ports.in.StoredItem;
import dev.stillpoint.ports.out.BegunRead;
import dev.stillpoint.ports.out.DefinedRead;
import dev.stillpoint.ports.out.Page;
import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.ports.out.PageSource;
import dev.stillpoint.ports.out.PinnedRead;
import dev.stillpoint.ports.out.ReadObserver;
import dev.stillpoint.ports.out.SegmentSources;
import dev.stillpoint.ports.out.SnapshotReadPort;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;

/**
 * A fake read port for testing the shared snapshot machinery alone (no database is involved):
 * one table of {@code size} items, scripted to fail at a chosen step, counting open reads (windows)
 * and reads closed twice, whichever step closed them.
 */
final class InMemoryReadPort implements SnapshotReadPort {

    /** Where an open or a stream fails. */
    enum FailAt { NOWHERE, BEGIN, DEFINITION, PIN, PAGES, SECOND_PAGE, SEGMENT_PAGE }

    private final TableDescription description;
    private final int size;
    final AtomicInteger openWindows = new AtomicInteger();
    /** Every call of {@code begin}, refused ones included. */
    final AtomicInteger begun = new AtomicInteger();
    final AtomicInteger closedTwice = new AtomicInteger();
    /** Segments handed out and not closed yet [B2]. */
    final AtomicInteger openSegments = new AtomicInteger();
    /** Closes of a step that had already handed the read to the next step (the engine must close the newest). */
    final AtomicInteger closedAfterHandOver = new AtomicInteger();
    volatile FailAt failAt = FailAt.NOWHERE;
    /** What the last {@code pages} call was asked for. */
    volatile StoredKeys storedKeysAsked;
    /** How many segments more (or fewer) than asked the read hands over: an adapter's miscut [B2]. */
    volatile int miscut;
    /** Called at the start of every page fetch with the page's number (1 for the first); a test's hook. */
    volatile IntConsumer onPage = n -> { };

    InMemoryReadPort(TableDescription description, int size) {
        this.description = description;
        this.size = size;
    }

    @Override
    public BegunRead begin(String accountId, String tableName, ReadObserver observer) {
        begun.incrementAndGet();
        if (!tableName.equals(description.tableName())) {
            throw StorageException.tableNotFound(tableName);
        }
        FailAt plan = failAt;
        fail(plan, FailAt.BEGIN);
        openWindows.incrementAndGet();
        Window window = new Window(plan);
        return window.handTo(new Begun(window, description));
    }

    private static void fail(FailAt plan, FailAt here) {
        if (plan == here) {
            throw new StorageException(ErrorReason.TRANSIENT, "scripted failure at " + here);
        }
    }

    private record Begun(Window window, TableDescription stored) implements BegunRead {
        @Override
        public DefinedRead readDefinition() {
            fail(window.plan, FailAt.DEFINITION);
            return window.handTo(new Defined(window, stored));
        }

        @Override
        public void close() {
            window.closeFrom(this);
        }
    }

    private record Defined(Window window, TableDescription description) implements DefinedRead {
        @Override
        public PinnedRead pin() {
            fail(window.plan, FailAt.PIN);
            return window.handTo(new Pinned(window, new SnapshotInfo("in-memory", "0"), false));
        }

        @Override
        public void close() {
            window.closeFrom(this);
        }
    }

    private record Pinned(Window window, SnapshotInfo info, boolean keyOrdered) implements PinnedRead {
        @Override
        public PageSource pages(StoredKeys storedKeys) {
            window.asked(storedKeys);
            fail(window.plan, FailAt.PAGES);
            return window.handTo(window);
        }

        /**
         * Segments as ONE read's ranges (as SQLite serves them [B2]): the window is the shared read, and
         * each segment pages through items [i*size/count, (i+1)*size/count) of it.
         */
        @Override
        public SegmentSources segments(int count, StoredKeys storedKeys) {
            window.asked(storedKeys);
            fail(window.plan, FailAt.PAGES);
            return window.cut(count);
        }

        @Override
        public void close() {
            window.closeFrom(this);
        }
    }

    /** One segment of a window: its own position in its key range, the window's read under it. */
    private final class Range implements PageSource {
        private final Window window;
        private final int end;
        private int next;
        private boolean closed;

        Range(Window window, int from, int end) {
            this.window = window;
            this.next = from;
            this.end = end;
            openSegments.incrementAndGet();
        }

        @Override
        public Page nextPage(PageBudget budget) {
            if (window.closed) {
                throw new IllegalStateException("a segment's page fetched after the shared read was closed");
            }
            if (window.plan == FailAt.SEGMENT_PAGE) {
                throw new StorageException(ErrorReason.TRANSIENT, "scripted failure at " + FailAt.SEGMENT_PAGE);
            }
            List<StoredItem> items = new ArrayList<>();
            while (next < end && !budget.full(items.size(), 0)) {
                items.add(new Stored(next++));
            }
            return new Page(items, next >= end);
        }

        @Override
        public synchronized void close() {
            if (closed) {
                closedTwice.incrementAndGet();
                return;
            }
            closed = true;
            openSegments.decrementAndGet();
        }
    }

    /** The one read behind every step of an open, and its pages: counts how, and how often, it is closed. */
    private final class Window implements PageSource {
        private final FailAt plan;

        void asked(StoredKeys storedKeys) {
            storedKeysAsked = storedKeys;
        }

        private int next;
        private int pagesServed;
        private volatile boolean closed;
        /** The step (or, once handed over, this page source) that holds the read now. */
        private volatile Object holder;

        Window(FailAt plan) {
            this.plan = plan;
        }

        /** The window's items cut into {@code asked} ranges (more or fewer by a miscut), the window itself shared under them. */
        SegmentSources cut(int asked) {
            int count = asked + miscut;
            List<PageSource> parts = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                parts.add(new Range(this, (int) ((long) i * size / count), (int) ((long) (i + 1) * size / count)));
            }
            return new SegmentSources(parts, handTo(this));
        }

        <T> T handTo(T next) {
            holder = next;
            return next;
        }

        /** Ends the read on a close of {@code step}, counting a close of a step that had handed it over. */
        void closeFrom(Object step) {
            if (step != holder) {
                closedAfterHandOver.incrementAndGet();
            }
            end();
        }

        @Override
        public Page nextPage(PageBudget budget) {
            if (closed) {
                throw new IllegalStateException("page fetched after the window was closed");
            }
            pagesServed++;
            onPage.accept(pagesServed);
            if (pagesServed == 2) {
                fail(plan, FailAt.SECOND_PAGE);
            }
            List<StoredItem> items = new ArrayList<>();
            while (next < size && !budget.full(items.size(), 0)) {
                items.add(new Stored(next++));
            }
            return new Page(items, next >= size);
        }

        @Override
        public void close() {
            closeFrom(this);
        }

        private synchronized void end() {
            if (closed) {
                closedTwice.incrementAndGet();
                return;
            }
            closed = true;
            openWindows.decrementAndGet();
        }
    }

    private record Stored(int n) implements StoredItem {
        @Override
        public String json() {
            return "{\"pk\":{\"S\":\"" + n + "\"}}";
        }

        @Override
        public Item item() {
            return Item.of(Map.of("pk", new AttributeValue.S(Integer.toString(n))));
        }
    }
}
