package dev.stillpoint.adapters.mongo.storage;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.key.KeySchema;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * The {@code _id} of a stored item: its key values as netstrings ({@code <utf-8 length>:<text>,}),
 * each text a type letter and the value (S as is, N in canonical form, B as lower-case hex). A length
 * prefix cannot collide the way a separator can: no key's text may contain something that reads as
 * the boundary, so distinct keys always have distinct ids, and the id reads back as the key.
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

    /** The id of {@code item} under {@code schema}, or empty when it lacks a scalar value for one of its parts. */
    public static Optional<String> under(KeySchema schema, Item item) {
        Optional<AttributeValue> partition = item.find(schema.partitionKey()).filter(KeyIds::scalar);
        if (partition.isEmpty()) {
            return Optional.empty();
        }
        if (schema.sortKey().isEmpty()) {
            return Optional.of(of(Key.of(partition.get())));
        }
        return item.find(schema.sortKey().get()).filter(KeyIds::scalar)
                .map(sort -> of(Key.of(partition.get(), sort)));
    }

    /** The key values an id holds, in order; a validation error naming the id when it is not one. */
    public static List<AttributeValue> parse(String id) {
        List<AttributeValue> values = new ArrayList<>();
        byte[] bytes = id.getBytes(StandardCharsets.UTF_8);
        int at = 0;
        while (at < bytes.length) {
            int colon = at;
            while (colon < bytes.length && bytes[colon] >= '0' && bytes[colon] <= '9' && colon - at < 10) {
                colon++;
            }
            if (colon == at || colon >= bytes.length || bytes[colon] != ':') {
                throw malformed(id, "expected a length and ':' at byte " + at);
            }
            long length = Long.parseLong(new String(bytes, at, colon - at, StandardCharsets.US_ASCII));
            long end = colon + 1 + length;
            if (length < 1 || end >= bytes.length || bytes[(int) end] != ',') {
                throw malformed(id, "the part at byte " + at + " does not end with ',' after " + length + " bytes");
            }
            values.add(value(id, new String(bytes, colon + 1, (int) length, StandardCharsets.UTF_8)));
            at = (int) end + 1;
        }
        if (values.isEmpty() || values.size() > 2) {
            throw malformed(id, "a key has one or two parts, found " + values.size());
        }
        return values;
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

    private static AttributeValue value(String id, String text) {
        String body = text.substring(1);
        return switch (text.charAt(0)) {
            case 'S' -> new AttributeValue.S(body);
            case 'N' -> AttributeValue.N.fromStored(body);
            case 'B' -> {
                try {
                    yield new AttributeValue.B(HEX.parseHex(body));
                } catch (IllegalArgumentException e) {
                    throw malformed(id, "B part is not hex: " + e.getMessage());
                }
            }
            default -> throw malformed(id, "unknown type letter '" + text.charAt(0) + "'");
        };
    }

    private static boolean scalar(AttributeValue v) {
        return v instanceof AttributeValue.S || v instanceof AttributeValue.N || v instanceof AttributeValue.B;
    }

    private static StorageException malformed(String id, String why) {
        String shown = id.length() > 120 ? id.substring(0, 120) + "..." : id;
        return StorageException.validation("'" + shown + "' is not a stored item id: " + why);
    }
}
