package dev.stillpoint.adapters.mongo.storage;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Key;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * The {@code _id} of a stored item: its key values as netstrings ({@code <utf-8 length>:<text>,}),
 * each text a type letter and the value (S as is, N in canonical form, B as lower-case hex). A length
 * prefix cannot collide the way a separator can: no key's text may contain something that reads as
 * the boundary, so distinct keys always have distinct ids, and the id reads back as the key (the
 * tests' {@code KeyIdReader} reads it).
 *
 * <p>Hex keeps B in byte order as text (BSON binary compares by length first); the id as a whole is
 * not in {@code KeyOrder}, which is why MongoDB snapshots declare {@code keyOrdered} false [M3].
 */
public final class KeyIds {

    private static final HexFormat HEX = HexFormat.of();

    private KeyIds() {
    }

    /** The id of the item with this key. */
    public static String of(Key key) {
        StringBuilder out = new StringBuilder();
        append(out, key.partition());
        key.sort().ifPresent(s -> append(out, s));
        return out.toString();
    }

    private static void append(StringBuilder out, AttributeValue value) {
        String text = text(value);
        out.append(text.getBytes(StandardCharsets.UTF_8).length).append(':').append(text).append(',');
    }

    private static String text(AttributeValue value) {
        if (value instanceof AttributeValue.S s) {
            return "S" + s.value();
        }
        if (value instanceof AttributeValue.N n) {
            return "N" + n.text();
        }
        if (value instanceof AttributeValue.B b) {
            return "B" + HEX.formatHex(b.bytes());
        }
        throw StorageException.validation("a key value must be S, N or B, got " + value.typeName());
    }
}
