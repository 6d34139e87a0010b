package dev.stillpoint.properties.kit.selftest;

import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.item.KeyOrder;
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
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * The reference adapter's snapshot reads: the definition read takes a copy of the table (the instant),
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
    public BegunRead begin(String accountId, String tableName, ReadObserver observer) {
        return new Begun(accountId, tableName, observer);
    }

    private record Stored(Item item, String json) implements StoredItem {
        static Stored of(Item item) {
            return new Stored(item, DynamoJson.write(item));
        }
    }

    /** The items of one instant, sorted as the stream will hand them out, and the commit they are at. */
    private record Taken(List<Item> items, long commit) {
    }

    private final class Begun implements BegunRead {
        private final String account;
        private final String table;
        private final ReadObserver observer;

        Begun(String account, String table, ReadObserver observer) {
            this.account = account;
            this.table = table;
            this.observer = observer;
        }

        @Override
        public DefinedRead readDefinition() {
            ReferenceDatabase.Copy copy = db.copy(account, table);
            TableDescription description = copy.description();
            Optional<KeyOrder> order = KeyOrder.resolve(description.keySchema(), description.attributeDefinitions()).ordered();
            Optional<Taken> taken = flaw == Flaw.ITEMS_PINNED_AFTER_THE_DEFINITION_PAUSE
                    ? Optional.empty() : Optional.of(take(copy, order));
            TableDescription reported = flaw == Flaw.DESCRIPTION_WITHOUT_RESTORE_SUMMARY
                    ? ReferenceDatabase.withRestore(description, Optional.empty()) : description;
            return new Defined(this, reported, order, taken);
        }

        @Override
        public void close() {
        }
    }

    private Taken take(ReferenceDatabase.Copy copy, Optional<KeyOrder> order) {
        List<Item> sorted = new ArrayList<>(copy.items());
        order.ifPresent(o -> sorted.sort(o.itemComparator()));
        if (flaw == Flaw.UNSORTED_PAGES_DECLARED_ORDERED) {
            Collections.reverse(sorted);
        }
        return new Taken(sorted, copy.commit());
    }

    private final class Defined implements DefinedRead {
        private final Begun begun;
        private final TableDescription description;
        private final Optional<KeyOrder> order;
        private final Optional<Taken> taken;

        Defined(Begun begun, TableDescription description, Optional<KeyOrder> order, Optional<Taken> taken) {
            this.begun = begun;
            this.description = description;
            this.order = order;
            this.taken = taken;
        }

        @Override
        public TableDescription description() {
            return description;
        }

        @Override
        public PinnedRead pin() {
            Taken items = taken.orElseGet(() -> take(db.copy(begun.account, begun.table), order));
            return new Pinned(this, items);
        }

        @Override
        public void close() {
        }
    }

    private final class Pinned implements PinnedRead {
        private final Defined defined;
        private final Taken taken;

        Pinned(Defined defined, Taken taken) {
            this.defined = defined;
            this.taken = taken;
        }

        @Override
        public SnapshotInfo info() {
            return new SnapshotInfo("reference-copy", Long.toString(taken.commit()));
        }

        @Override
        public boolean keyOrdered() {
            return defined.order.isPresent();
        }

        @Override
        public PageSource pages(StoredKeys storedKeys) {
            Pages pages = new Pages(defined, taken.items());
            if (flaw == Flaw.EVERY_PAGE_READ_DURING_THE_OPEN) {
                pages.readAll();
            }
            return pages;
        }

        /** The instant's copy cut at i * size / N [B2]: key ranges when the copy is in key order. */
        @Override
        public SegmentSources segments(int count, StoredKeys storedKeys) {
            List<Item> all = taken.items();
            List<PageSource> parts = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                int from = (int) ((long) i * all.size() / count);
                int to = (int) ((long) (i + 1) * all.size() / count);
                boolean lastPart = i == count - 1;
                Pages part = new Pages(defined, all.subList(from, to));
                if (flaw == Flaw.SEGMENTS_EACH_AT_ITS_OWN_INSTANT && i > 0) {
                    // The live table as the segment's first fetch finds it, cut at the same positions.
                    part.late = () -> {
                        List<Item> live = db.liveItems(defined.begun.account, defined.begun.table);
                        defined.order.ifPresent(o -> live.sort(o.itemComparator()));
                        return live.subList(Math.min(from, live.size()), lastPart ? live.size()
                                : Math.min(to, live.size()));
                    };
                }
                parts.add(part);
            }
            return new SegmentSources(parts, SegmentSources.NOTHING_SHARED);
        }

        @Override
        public void close() {
        }
    }

    /** Pages served from the instant's copy on demand, one round trip each. */
    private final class Pages implements PageSource {
        private final Defined defined;
        private final String account;
        private final String table;
        private final ReadObserver observer;
        private List<Item> items;
        /** Where the items come from at the first fetch instead, when set (a flaw's segment). */
        private java.util.function.Supplier<List<Item>> late;
        private int next;
        private Key lastKey;
        private Deque<Page> prefetched;
        private boolean done;

        Pages(Defined defined, List<Item> items) {
            this.defined = defined;
            this.account = defined.begun.account;
            this.table = defined.begun.table;
            this.observer = defined.begun.observer;
            this.items = items;
        }

        void readAll() {
            prefetched = new ArrayDeque<>();
            Page page;
            do {
                page = fetch(new PageBudget(50, Long.MAX_VALUE));
                prefetched.add(page);
            } while (!page.last());
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
            if (late != null) {
                items = late.get();
                late = null;
            }
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
            if (taken > 0 && defined.order.isPresent()) {
                lastKey = Key.of(source.get(taken - 1), defined.description.keySchema());
            }
            done = taken == source.size();
            return new Page(page, done);
        }

        private List<Item> remaining() {
            if (flaw == Flaw.PAGES_FROM_THE_LIVE_TABLE && defined.order.isPresent()) {
                KeyOrder o = defined.order.get();
                List<Item> live = db.liveItems(account, table);
                live.sort(o.itemComparator());
                if (lastKey == null) {
                    return live;
                }
                return live.stream()
                        .filter(i -> o.compare(Key.of(i, defined.description.keySchema()), lastKey) > 0)
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
