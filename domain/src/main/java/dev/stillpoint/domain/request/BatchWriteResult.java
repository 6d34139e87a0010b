package dev.stillpoint.domain.request;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a BatchWriteItem [R7] did: the requests it did not apply, by table. Empty on a backend with
 * transactions (a batch there is applied whole or refused whole); a backend without them applies the
 * batch in order and hands back what a failure left unapplied, so the caller can send it again.
 *
 * @param unprocessedItems the requests not applied, by table name, in request order; no empty lists
 */
public record BatchWriteResult(Map<String, List<WriteRequest>> unprocessedItems) {

    /**
     * Copies {@code unprocessedItems}, keeping its order and leaving out tables with nothing unapplied.
     *
     * @param unprocessedItems the requests not applied, by table name
     */
    public BatchWriteResult {
        Map<String, List<WriteRequest>> copy = new LinkedHashMap<>();
        unprocessedItems.forEach((table, requests) -> {
            if (!requests.isEmpty()) {
                copy.put(table, List.copyOf(requests));
            }
        });
        unprocessedItems = java.util.Collections.unmodifiableMap(copy);
    }

    /**
     * A batch applied whole.
     *
     * @return a result with no unprocessed items
     */
    public static BatchWriteResult applied() {
        return new BatchWriteResult(Map.of());
    }

    /**
     * Whether every request was applied.
     *
     * @return true when nothing is unprocessed
     */
    public boolean complete() {
        return unprocessedItems.isEmpty();
    }
}
