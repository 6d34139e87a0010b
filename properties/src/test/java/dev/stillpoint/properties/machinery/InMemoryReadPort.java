package dev.stillpoint.properties.machinery;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.in.SnapshotInfo;
import dev.stillpoint.ports.in.StoredItem;
import dev.stillpoint.ports.out.Page;
import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.ports.out.PageSource;
import dev.stillpoint.ports.out.ReadObserver;
import dev.stillpoint.ports.out.ReadWindow;
import dev.stillpoint.ports.out.SnapshotReadPort;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A fake read port for testing the shared snapshot machinery alone (no database is involved):
 * one table of {@code size} items, scripted to fail at a chosen step, counting open windows.
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
    volatile FailAt failAt = FailAt.NOWHERE;

    InMemoryReadPort(TableDescription description, int size) {
        this.description = description;
        this.size = size;
    }

    @Override
    public ReadWindow begin(String accountId, String tableName, ReadObserver observer) {
        begun.incrementAndGet();
        if (!tableName.equals(description.tableName())) {
            throw StorageException.tableNotFound(tableName);
        }
        FailAt plan = failAt;
        fail(plan, FailAt.BEGIN);
        openWindows.incrementAndGet();
        return new Window(plan);
    }

    private static void fail(FailAt plan, FailAt here) {
        if (plan == here) {
            throw new StorageException(ErrorReason.TRANSIENT, "scripted failure at " + here);
        }
    }

    private final class Window implements ReadWindow, PageSource {
        private final FailAt plan;
        private int next;
        private int pagesServed;
        private boolean closed;

        Window(FailAt plan) {
            this.plan = plan;
        }

        @Override
        public TableDescription readDefinition() {
            fail(plan, FailAt.DEFINITION);
            return description;
        }

        @Override
        public SnapshotInfo pin() {
            fail(plan, FailAt.PIN);
            return new SnapshotInfo("in-memory", "0");
        }

        @Override
        public boolean keyOrdered() {
            return false;
        }

        @Override
        public PageSource pages() {
            fail(plan, FailAt.PAGES);
            return this;
        }

        @Override
        public Page nextPage(PageBudget budget) {
            if (closed) {
                throw new IllegalStateException("page fetched after the window was closed");
            }
            pagesServed++;
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
        public synchronized void close() {
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
