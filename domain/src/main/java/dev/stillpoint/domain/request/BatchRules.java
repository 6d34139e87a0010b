package dev.stillpoint.domain.request;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.item.Names;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.table.TableDescription;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The rules of BatchWriteItem [R7], DynamoDB's: 1 to 25 put or delete requests over one or more
 * tables, every table name valid [R1], every put checked as PutItem checks it and every delete's key
 * as DeleteItem checks it [R3, R4], and no two requests on one table under the same primary key
 * (compared after numbers are normalised, so {@code 1} and {@code 1.0} are the same key).
 */
public final class BatchRules {

    /** The most requests one BatchWriteItem may carry, over all its tables. */
    public static final int MAX_REQUESTS = 25;

    private BatchRules() {
    }

    /**
     * Checks what needs no table definition: the account id, the request count, every table name, and
     * that no request is missing its item or key.
     *
     * @param accountId the account the tables belong to
     * @param requestItems the requests by table name
     * @return a copy of {@code requestItems}, in the caller's order
     */
    public static Map<String, List<WriteRequest>> requireShape(String accountId,
                                                               Map<String, List<WriteRequest>> requestItems) {
        AccountIds.require(accountId);
        int count = 0;
        if (requestItems != null) {
            for (List<WriteRequest> requests : requestItems.values()) {
                count += requests == null ? 0 : requests.size();
            }
        }
        if (count < 1 || count > MAX_REQUESTS) {
            throw StorageException.validation("BatchWriteItem takes 1 to " + MAX_REQUESTS
                    + " put or delete requests in all, got " + count);
        }
        Map<String, List<WriteRequest>> copy = new LinkedHashMap<>();
        for (Map.Entry<String, List<WriteRequest>> e : requestItems.entrySet()) {
            String table = e.getKey();
            Names.requireTableName(table);
            if (e.getValue() == null || e.getValue().isEmpty()) {
                throw StorageException.validation("BatchWriteItem names table '" + table
                        + "' with no requests; each table needs 1 to " + MAX_REQUESTS);
            }
            for (WriteRequest request : e.getValue()) {
                boolean missing = request == null
                        || (request instanceof WriteRequest.Put p && p.item() == null)
                        || (request instanceof WriteRequest.Delete d && d.key() == null);
                if (missing) {
                    throw StorageException.validation("a request of BatchWriteItem on table '" + table
                            + "' has no " + (request instanceof WriteRequest.Delete ? "key" : "item"));
                }
            }
            copy.put(table, List.copyOf(e.getValue()));
        }
        return copy;
    }

    /**
     * Checks the requests on one table against its definition, as the unit of work read it: the table
     * takes item writes, each put is a valid PutItem, each delete's key a valid key, and no two
     * requests share a primary key.
     *
     * @param table the table's definition as the unit of work read it
     * @param requests the requests on that table, as {@link #requireShape} returned them
     * @return one checked change per request, in request order
     */
    public static List<ItemChange> forTable(TableDescription table, List<WriteRequest> requests) {
        TableRules.requireItemsAvailable(table);
        List<ItemChange> changes = new ArrayList<>(requests.size());
        Set<Key> seen = new HashSet<>();
        for (WriteRequest request : requests) {
            ItemChange change = request instanceof WriteRequest.Put p
                    ? new ItemChange.Put(ItemRules.forPut(table, p.item()))
                    : delete(table, (WriteRequest.Delete) request);
            if (!seen.add(change.key())) {
                throw StorageException.validation("BatchWriteItem holds two requests on table '" + table.tableName()
                        + "' for the key " + shown(change.key(), table.keySchema())
                        + "; a batch may write each item once");
            }
            changes.add(change);
        }
        return changes;
    }

    private static ItemChange.Delete delete(TableDescription table, WriteRequest.Delete request) {
        Key key = ItemRules.forKey(table, request.key());
        return new ItemChange.Delete(key, new WriteRequest.Delete(RequestKey.named(key, table.keySchema())));
    }

    /** {@code pk = S 'a', sk = N 1}: the key as a message shows it. */
    private static String shown(Key key, KeySchema schema) {
        StringBuilder out = new StringBuilder("{").append(schema.partitionKey()).append(" = ").append(shown(key.partition()));
        key.sort().ifPresent(s -> out.append(", ").append(schema.sortKey().orElse("sort key")).append(" = ").append(shown(s)));
        return out.append('}').toString();
    }

    private static String shown(AttributeValue value) {
        if (value instanceof AttributeValue.S s) {
            return "S " + Shown.text(s.value());
        }
        if (value instanceof AttributeValue.N n) {
            return "N " + n.text();
        }
        // A key's value is S, N or B [D4]: the key rules refused any other before a message shows it.
        return "B " + Base64.getEncoder().encodeToString(((AttributeValue.B) value).bytes());
    }
}
