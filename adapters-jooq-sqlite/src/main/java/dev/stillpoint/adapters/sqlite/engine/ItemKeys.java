package dev.stillpoint.adapters.sqlite.engine;

import dev.stillpoint.adapters.sqlite.storage.KeyCodec;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.DynamoNumber;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.key.KeySchema;
import java.util.Optional;

/** A key as the data relations store it: {@code pk} and {@code sk} in {@link KeyCodec}'s order-preserving bytes. */
record ItemKeys(byte[] pk, byte[] sk) {

    static ItemKeys of(Key key) {
        return new ItemKeys(encode(key.partition()), key.sort().map(ItemKeys::encode).orElse(KeyCodec.absentSortKey()));
    }

    /** The item's key under {@code schema}, or empty when the item lacks one of its attributes (not in that index). */
    static Optional<ItemKeys> under(KeySchema schema, Item item) {
        Optional<AttributeValue> partition = item.find(schema.partitionKey()).filter(ItemKeys::scalar);
        if (partition.isEmpty()) {
            return Optional.empty();
        }
        if (schema.sortKey().isEmpty()) {
            return Optional.of(new ItemKeys(encode(partition.get()), KeyCodec.absentSortKey()));
        }
        return item.find(schema.sortKey().get()).filter(ItemKeys::scalar)
                .map(sort -> new ItemKeys(encode(partition.get()), encode(sort)));
    }

    private static boolean scalar(AttributeValue v) {
        return v instanceof AttributeValue.S || v instanceof AttributeValue.N || v instanceof AttributeValue.B;
    }

    static byte[] encode(AttributeValue value) {
        if (value instanceof AttributeValue.S s) {
            return KeyCodec.encodeString(s.value());
        }
        if (value instanceof AttributeValue.B b) {
            return KeyCodec.encodeBinary(b.bytes());
        }
        if (value instanceof AttributeValue.N n) {
            return KeyCodec.encodeNumber(DynamoNumber.value(n.text()));
        }
        throw StorageException.validation("a key value must be S, N or B, got " + value.typeName());
    }
}
