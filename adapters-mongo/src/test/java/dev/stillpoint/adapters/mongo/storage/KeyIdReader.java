package dev.stillpoint.adapters.mongo.storage;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * Reads a stored {@code _id} back as the key values it holds: the tests' oracle that {@link KeyIds} writes
 * every key to an id of its own (nothing in the adapter reads an id; a snapshot takes the key from the item).
 */
final class KeyIdReader {

    private static final HexFormat HEX = HexFormat.of();

    private KeyIdReader() {
    }

    /** The key values an id holds, in order; a validation error naming the id when it is not one. */
    static List<AttributeValue> parse(String id) {
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

    private static StorageException malformed(String id, String why) {
        String shown = id.length() > 120 ? id.substring(0, 120) + "..." : id;
        return StorageException.validation("'" + shown + "' is not a stored item id: " + why);
    }
}
