package dev.stillpoint.core;

import dev.stillpoint.domain.request.ItemChange;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a backend without multi-partition transactions applies a checked batch [R7]: change by change,
 * in order, stopping at the first failure. What the failure left unapplied (the failed change and every
 * later one) comes back as unprocessed, because re-applying a put or a delete is harmless; a failure of
 * the very first change is thrown, as a single write's failure would be. The one statement of
 * {@link ItemWrites#write}'s rule for such backends, so no adapter restates it.
 */
public final class InOrderBatch {

    private static final Logger LOG = LoggerFactory.getLogger(InOrderBatch.class);

    private InOrderBatch() {
    }

    /**
     * Applies {@code changes} in order with {@code apply}.
     *
     * @param changes the checked changes by table name, in request order
     * @param apply writes one change of one table (item and index entries)
     * @return the changes not applied, by table name, in order; empty when all were applied
     */
    public static Map<String, List<ItemChange>> apply(Map<String, List<ItemChange>> changes,
                                                      BiConsumer<String, ItemChange> apply) {
        int applied = 0;
        Map<String, List<ItemChange>> notApplied = new LinkedHashMap<>();
        for (Map.Entry<String, List<ItemChange>> table : changes.entrySet()) {
            for (ItemChange change : table.getValue()) {
                if (notApplied.isEmpty()) {
                    try {
                        apply.accept(table.getKey(), change);
                        applied++;
                        continue;
                    } catch (RuntimeException e) {
                        if (applied == 0) {
                            throw e;
                        }
                        LOG.warn("a batch write stopped after {} applied change(s), the rest is returned unprocessed: {}",
                                applied, e.getMessage());
                    }
                }
                notApplied.computeIfAbsent(table.getKey(), t -> new ArrayList<>()).add(change);
            }
        }
        return notApplied;
    }
}
