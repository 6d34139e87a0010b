package dev.stillpoint.domain.request;

import dev.stillpoint.domain.item.Key;

/**
 * A {@link WriteRequest} the rules accepted against the table's definition, ready for storage: a
 * checked put (its {@link ItemWrite}) or a checked delete (its key, numbers normalised).
 */
public sealed interface ItemChange {

    /**
     * The primary key this change writes under, numbers normalised.
     *
     * @return the item's primary key
     */
    Key key();

    /**
     * The request this change answers, in its checked form (numbers normalised): what a backend that
     * did not apply the change hands back as unprocessed.
     *
     * @return the request
     */
    WriteRequest request();

    /**
     * A checked put.
     *
     * @param write the item, its key and its index keys
     */
    record Put(ItemWrite write) implements ItemChange {
        @Override
        public Key key() {
            return write.key();
        }

        @Override
        public WriteRequest request() {
            return new WriteRequest.Put(write.item());
        }
    }

    /**
     * A checked delete.
     *
     * @param key the primary key of the item to delete, checked
     * @param request the delete request in its checked form: the key's values under the schema's names
     */
    record Delete(Key key, WriteRequest.Delete request) implements ItemChange {
    }
}
