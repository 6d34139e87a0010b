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
    enum FailAt { NOWHERE, BEGIN, DEFINITION, PIN, PAGES, SECOND_PAGE }

    private final TableDescription description;
    private final int size;
    final AtomicInteger openWindows = new AtomicInteger();
    /** Every call of {@code begin}, refused ones included. */
    final AtomicInteger begun = new AtomicInteger();
    final AtomicInteger closedTwice = new AtomicInteger();
    /** Closes of a step that had already handed the read to the next step (the engine must close the newest). */
    final AtomicInteger closedAfterHandOver = new AtomicInteger();
    volatile FailAt failAt = FailAt.NOWHERE;
    /** What the last {@code pages} call was asked for. */
    volatile StoredKeys storedKeysAsked;
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

        @Override
        public void close() {
            window.closeFrom(this);
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
        private boolean closed;
        /** The step (or, once handed over, this page source) that holds the read now. */
        private volatile Object holder;

        Window(FailAt plan) {
            this.plan = plan;
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
