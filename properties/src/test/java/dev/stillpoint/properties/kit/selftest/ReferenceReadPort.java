package dev.stillpoint.properties.kit.selftest;

import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.key.KeyOrder;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.in.SnapshotInfo;
import dev.stillpoint.ports.in.StoredItem;
import dev.stillpoint.ports.out.Page;
import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.ports.out.PageSource;
import dev.stillpoint.ports.out.ReadObserver;
import dev.stillpoint.ports.out.ReadWindow;
import dev.stillpoint.ports.out.SnapshotReadPort;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * The reference adapter's read window: the definition read takes a copy of the table (the instant),
 * and pages are served from the copy in key order, one {@link ReadObserver#roundTrip()} per page, on
 * demand. The {@link Flaw}s move each of those decisions somewhere wrong.
 */
final class ReferenceReadPort implements SnapshotReadPort {

    private final ReferenceDatabase db;
    private final Flaw flaw;

    ReferenceReadPort(ReferenceDatabase db, Flaw flaw) {
        this.db = db;
        this.flaw = flaw;
    }

    @Override
    public ReadWindow begin(String accountId, String tableName, ReadObserver observer) {
        return new Window(accountId, tableName, observer);
    }

    private record Stored(Item item, String json) implements StoredItem {
        static Stored of(Item item) {
            return new Stored(item, DynamoJson.write(item));
        }
    }

    private final class Window implements ReadWindow, PageSource {
        private final String account;
        private final String table;
        private final ReadObserver observer;
        private TableDescription description;
        private Optional<KeyOrder> order = Optional.empty();
        private List<Item> items = List.of();
        private long commit;
        private int next;
        private Key lastKey;
        private Deque<Page> prefetched;
        private boolean done;

        Window(String account, String table, ReadObserver observer) {
            this.account = account;
            this.table = table;
            this.observer = observer;
        }

        @Override
        public TableDescription readDefinition() {
            ReferenceDatabase.Copy copy = db.copy(account, table);
            description = copy.description();
            order = KeyOrder.resolve(description.keySchema(), description.attributeDefinitions()).ordered();
            if (flaw != Flaw.ITEMS_PINNED_AFTER_THE_DEFINITION_PAUSE) {
                take(copy);
            }
            if (flaw == Flaw.DESCRIPTION_WITHOUT_RESTORE_SUMMARY) {
                return ReferenceDatabase.withRestore(description, Optional.empty());
            }
            return description;
        }

        @Override
        public SnapshotInfo pin() {
            if (flaw == Flaw.ITEMS_PINNED_AFTER_THE_DEFINITION_PAUSE) {
                take(db.copy(account, table));
            }
            return new SnapshotInfo("reference-copy", Long.toString(commit));
        }

        private void take(ReferenceDatabase.Copy copy) {
            List<Item> sorted = new ArrayList<>(copy.items());
            order.ifPresent(o -> sorted.sort(o.itemComparator()));
            if (flaw == Flaw.UNSORTED_PAGES_DECLARED_ORDERED) {
                Collections.reverse(sorted);
            }
            items = sorted;
            commit = copy.commit();
        }

        @Override
        public boolean keyOrdered() {
            return order.isPresent();
        }

        @Override
        public PageSource pages() {
            if (flaw == Flaw.EVERY_PAGE_READ_DURING_THE_OPEN) {
                prefetched = new ArrayDeque<>();
                Page page;
                do {
                    page = fetch(new PageBudget(50, Long.MAX_VALUE));
                    prefetched.add(page);
                } while (!page.last());
            }
            return this;
        }

        @Override
        public Page nextPage(PageBudget budget) {
            if (prefetched != null) {
                Page page = prefetched.poll();
                return page != null ? page : new Page(List.of(), true);
            }
            return fetch(budget);
        }

        private Page fetch(PageBudget budget) {
            if (done) {
                throw new IllegalStateException("page fetched after the last one");
            }
            observer.roundTrip();
            List<Item> source = remaining();
            List<StoredItem> page = new ArrayList<>();
            long bytes = 0;
            int taken = 0;
            while (taken < source.size() && !budget.full(page.size(), bytes)) {
                Stored stored = Stored.of(source.get(taken++));
                page.add(stored);
                bytes += stored.json().getBytes(StandardCharsets.UTF_8).length;
            }
            next += taken;
            if (taken > 0 && order.isPresent()) {
                lastKey = Key.of(source.get(taken - 1), description.keySchema());
            }
            done = taken == source.size();
            return new Page(page, done);
        }

        private List<Item> remaining() {
            if (flaw == Flaw.PAGES_FROM_THE_LIVE_TABLE && order.isPresent()) {
                KeyOrder o = order.get();
                List<Item> live = db.liveItems(account, table);
                live.sort(o.itemComparator());
                if (lastKey == null) {
                    return live;
                }
                return live.stream()
                        .filter(i -> o.compare(Key.of(i, description.keySchema()), lastKey) > 0)
                        .toList();
            }
            return items.subList(next, items.size());
        }

        @Override
        public void close() {
            items = List.of();
            prefetched = null;
        }
    }
}
