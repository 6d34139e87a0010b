package dev.stillpoint.itemjson;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Writes an item's canonical DynamoDB JSON into a growing char buffer, one writer per encode: no
 * whitespace, attributes and map entries in the item's order, strings escaped per RFC 8259 and no
 * more, N texts as held, B as the JDK's standard padded base64. Hand-written rather than
 * jackson-core's generator because it is faster on the same rows (see {@link ItemJson}).
 */
final class ItemWriter {
    private static final char[] HEX = "0123456789abcdef".toCharArray();
    private static final Base64.Encoder BASE64 = Base64.getEncoder();

    private char[] buf = new char[512];
    private int len;

    static String write(Item item) {
        ItemWriter out = new ItemWriter();
        out.append('{');
        boolean first = true;
        for (Map.Entry<String, AttributeValue> e : item.attributes().entrySet()) {
            if (!first) {
                out.append(',');
            }
            first = false;
            out.string(e.getKey());
            out.append(':');
            out.value(e.getValue(), 0, e.getKey());
        }
        out.append('}');
        return new String(out.buf, 0, out.len);
    }

    private void room(int more) {
        if (len + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + more));
        }
    }

    private void append(char c) {
        if (len == buf.length) {
            room(1);
        }
        buf[len++] = c;
    }

    private void append(String text) {
        int length = text.length();
        room(length);
        text.getChars(0, length, buf, len);
        len += length;
    }

    private void value(AttributeValue value, int depth, String attribute) {
        if (value instanceof AttributeValue.S s) {
            append("{\"S\":");
            string(s.value());
        } else if (value instanceof AttributeValue.N n) {
            append("{\"N\":");
            string(n.text());
        } else if (value instanceof AttributeValue.M m) {
            checkNesting(depth, attribute);
            append("{\"M\":{");
            boolean first = true;
            for (Map.Entry<String, AttributeValue> e : m.values().entrySet()) {
                if (!first) {
                    append(',');
                }
                first = false;
                string(e.getKey());
                append(':');
                value(e.getValue(), depth + 1, attribute);
            }
            append('}');
        } else if (value instanceof AttributeValue.L l) {
            checkNesting(depth, attribute);
            append("{\"L\":[");
            List<AttributeValue> values = l.values();
            for (int i = 0; i < values.size(); i++) {
                if (i > 0) {
                    append(',');
                }
                value(values.get(i), depth + 1, attribute);
            }
            append(']');
        } else if (value instanceof AttributeValue.Bool b) {
            append(b.value() ? "{\"BOOL\":true" : "{\"BOOL\":false");
        } else if (value instanceof AttributeValue.Null) {
            append("{\"NULL\":true");
        } else if (value instanceof AttributeValue.B b) {
            append("{\"B\":\"");
            append(BASE64.encodeToString(b.bytes()));
            append('"');
        } else if (value instanceof AttributeValue.SS ss) {
            append("{\"SS\":[");
            strings(ss.values());
            append(']');
        } else if (value instanceof AttributeValue.NS ns) {
            append("{\"NS\":[");
            strings(ns.values());
            append(']');
        } else {
            append("{\"BS\":[");
            boolean first = true;
            for (byte[] member : ((AttributeValue.BS) value).values()) {
                if (!first) {
                    append(',');
                }
                first = false;
                append('"');
                append(BASE64.encodeToString(member));
                append('"');
            }
            append(']');
        }
        append('}');
    }

    private void strings(Set<String> members) {
        boolean first = true;
        for (String member : members) {
            if (!first) {
                append(',');
            }
            first = false;
            string(member);
        }
    }

    /** {@code text} as a JSON string: only {@code "}, {@code \} and characters below U+0020 escaped. */
    private void string(String text) {
        int length = text.length();
        room(length + 2);
        buf[len++] = '"';
        text.getChars(0, length, buf, len);
        int start = len;
        len += length;
        for (int i = start; i < len; i++) {
            char c = buf[i];
            if (c < 0x20 || c == '"' || c == '\\') {
                // Copied whole on the guess that nothing needs escaping; rewrite from the first that does.
                len = i;
                escapedTail(text, i - start);
                break;
            }
        }
        append('"');
    }

    private void escapedTail(String text, int from) {
        int length = text.length();
        for (int i = from; i < length; i++) {
            char c = text.charAt(i);
            if (c >= 0x20 && c != '"' && c != '\\') {
                append(c);
                continue;
            }
            room(6);
            buf[len++] = '\\';
            switch (c) {
                case '"' -> buf[len++] = '"';
                case '\\' -> buf[len++] = '\\';
                case '\b' -> buf[len++] = 'b';
                case '\f' -> buf[len++] = 'f';
                case '\n' -> buf[len++] = 'n';
                case '\r' -> buf[len++] = 'r';
                case '\t' -> buf[len++] = 't';
                default -> {
                    buf[len++] = 'u';
                    buf[len++] = '0';
                    buf[len++] = '0';
                    buf[len++] = HEX[c >> 4];
                    buf[len++] = HEX[c & 0xF];
                }
            }
        }
    }

    private static void checkNesting(int depth, String attribute) {
        if (depth >= ItemJson.MAX_NESTING) {
            throw StorageException.validation("item attribute " + Refusal.show(attribute)
                    + " nests L and M values more than " + ItemJson.MAX_NESTING + " levels deep");
        }
    }
}
