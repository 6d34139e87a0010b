package dev.stillpoint.adapters.sqlite.engine;

import dev.stillpoint.ports.in.StoredItem;
import dev.stillpoint.ports.out.Page;
import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.ports.out.PageSource;
import java.util.List;

/** The pages of an in-memory database's snapshot, served from the copy its open made [Q4]; no connection is held. */
final class CopyPages implements PageSource {
    private final List<StoredItem> copy;
    private int next;

    CopyPages(List<StoredItem> copy) {
        this.copy = copy;
    }

    @Override
    public Page nextPage(PageBudget budget) {
        int from = next;
        long bytes = 0;
        while (next < copy.size() && !budget.full(next - from, bytes)) {
            StoredItem item = copy.get(next);
            bytes += item instanceof StoredJson stored ? stored.size() : item.json().length(); // bytes, as LivePages counts
            next++;
        }
        return new Page(copy.subList(from, next), next >= copy.size());
    }

    @Override
    public void close() {
        next = copy.size();
    }
}
