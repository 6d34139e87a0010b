package dev.stillpoint.adapters.sqlite.engine;

import dev.stillpoint.adapters.sqlite.storage.KeyCodec;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.DynamoNumber;
import dev.stillpoint.domain.item.Key;

/** A key as the data relations store it: {@code pk} and {@code sk} in {@link KeyCodec}'s order-preserving bytes. */
record ItemKeys(byte[] pk, byte[] sk) {

    static ItemKeys of(Key key) {
        return new ItemKeys(encode(key.partition()), key.sort().map(ItemKeys::encode).orElse(KeyCodec.absentSortKey()));
    }

    static byte[] encode(AttributeValue value) {
        if (value instanceof AttributeValue.S s) {
            return KeyCodec.encodeString(s.value());
        }
        if (value instanceof AttributeValue.B b) {
            return KeyCodec.encodeBinary(b.bytes());
        }
        if (value instanceof AttributeValue.N n) {
            return KeyCodec.encodeNumber(DynamoNumber.normalise(n.text()));
        }
        throw StorageException.validation("a key value must be S, N or B, got " + value.typeName());
    }
}
