package dev.stillpoint.properties.kit;

import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.request.RequestKey;
import dev.stillpoint.ports.in.TableOperations;
import java.util.List;
import java.util.Optional;

/**
 * One line of the DynamoDB reference corpus [V1]: a request on the reference table
 * ({@link DynamoReferenceCorpus#table}) and the verdict DynamoDB's documentation gives it, with the page
 * that says so. A case is data: the kit sends it to the adapter under test and fails the adapter if the
 * verdict differs ({@link ReferenceCorpusChecks}).
 *
 * @param name       what the case is, for the failure message ("SS empty inside L")
 * @param request    the request, as sent to the adapter
 * @param accepted   DynamoDB's verdict: accepted, or refused as a ValidationException
 * @param mentions   what a refusal's message must contain (DynamoDB's wording, the attribute); none when accepted
 * @param digits     significant digits of N the case needs stored to be accepted (38 for a 38-digit number;
 *                   0 when it has none): a backend declaring fewer refuses it [M4] instead
 * @param source     the documentation page the verdict comes from
 */
public record ReferenceCase(String name, Request request, boolean accepted, List<String> mentions, int digits,
                            String source) {

    /** Copies the mentions. */
    public ReferenceCase {
        mentions = List.copyOf(mentions);
    }

    /**
     * A request of the corpus. A new kind of request (GetItem or DeleteItem with a key as the request gives
     * it, say) is one more implementation; the runner needs nothing else.
     */
    public interface Request {
        /**
         * Sends the request to the adapter.
         *
         * @param tables    the adapter's table operations
         * @param accountId the reference table's account
         * @param table     the reference table's name
         */
        void send(TableOperations tables, String accountId, String table);

        /**
         * What the table must hold after the request, read back by key: the item an accepted put wrote, or
         * empty after a refused one. Empty when the request leaves nothing to read back.
         *
         * @return the key to read and the item expected under it (empty: none)
         */
        Optional<ReadBack> readBack();
    }

    /**
     * A read after the request.
     *
     * @param key  the key to read
     * @param item what an accepted request left under it
     */
    public record ReadBack(RequestKey key, Item item) {
    }

    /**
     * PutItem of {@code item}; its key (pk, sk) is read back after.
     *
     * @param item the item to put
     */
    public record Put(Item item) implements Request {
        @Override
        public void send(TableOperations tables, String accountId, String table) {
            tables.putItem(accountId, table, item);
        }

        @Override
        public Optional<ReadBack> readBack() {
            return Optional.of(new ReadBack(RequestKey.of("pk", item.get("pk"), "sk", item.get("sk")), item));
        }

        @Override
        public String toString() {
            return "PutItem";
        }
    }
}
