package dev.stillpoint.cli;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.request.BatchRules;
import dev.stillpoint.domain.request.BatchWriteResult;
import dev.stillpoint.domain.request.WriteRequest;
import dev.stillpoint.ports.in.TableOperations;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A bulk load into one table through BatchWriteItem [R7]: puts gathered 25 at a time, each batch sent
 * until nothing of it is unprocessed (a backend without transactions hands back what a failure left),
 * a bounded number of times.
 */
final class BatchLoad {

    private static final int MAX_SENDS = 10;

    private final TableOperations tables;
    private final String account;
    private final String table;
    private final List<WriteRequest> pending = new ArrayList<>(BatchRules.MAX_REQUESTS);

    BatchLoad(TableOperations tables, String account, String table) {
        this.tables = tables;
        this.account = account;
        this.table = table;
    }

    /** Adds a put; a full batch is sent at once. */
    void put(Item item) {
        pending.add(new WriteRequest.Put(item));
        if (pending.size() == BatchRules.MAX_REQUESTS) {
            flush();
        }
    }

    /** Sends what is gathered, if anything. */
    void flush() {
        if (pending.isEmpty()) {
            return;
        }
        Map<String, List<WriteRequest>> batch = Map.of(table, List.copyOf(pending));
        pending.clear();
        for (int send = 0; send < MAX_SENDS; send++) {
            BatchWriteResult result = tables.batchWriteItem(account, batch);
            if (result.complete()) {
                return;
            }
            batch = result.unprocessedItems();
        }
        throw new StorageException(ErrorReason.TRANSIENT, "loading table '" + table + "': a batch still had "
                + batch.getOrDefault(table, List.of()).size() + " unprocessed item(s) after " + MAX_SENDS + " sends");
    }
}
