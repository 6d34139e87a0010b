package dev.stillpoint.domain.item;

import dev.stillpoint.domain.error.StorageException;
import java.nio.ByteBuffer;
import java.util.AbstractList;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.RandomAccess;
import java.util.Set;

/**
 * The one codec between an {@link Item} and DynamoDB JSON text, the form every adapter stores and
 * the CLI exports: {@code {"pk":{"S":"a"},"n":{"N":"1.5"},"l":{"L":[{"BOOL":true}]}}}.
 *
 * <p>{@link #encode} writes the canonical text: attributes and map entries in the item's iteration
 * order, no whitespace, strings escaped per RFC 8259 (only {@code "}, {@code \} and control
 * characters below U+0020; everything else, surrogates included, is written as is), B and BS as
 * standard padded base64, N and NS texts exactly as held.
 *
 * <p>{@link #decode} is a strict parser for exactly this shape. It accepts any RFC 8259 spelling of
 * it (insignificant whitespace between tokens, every string escape including {@code \}{@code uXXXX}
 * surrogate pairs) and refuses everything else with a {@link StorageException} of reason VALIDATION
 * whose message names the position and shows the text from there: unknown or repeated type tags,
 * non-string where a string belongs, malformed or non-canonical base64, duplicate attribute names,
 * map keys or set members, L/M nesting deeper than {@value #MAX_NESTING}, trailing characters. N and
 * NS texts are taken as stored [S4]: a valid number is normalised, an invalid one kept raw, never
 * refused. {@code decode(encode(item))} equals {@code item} whenever the item's numbers are canonical
 * or invalid, and {@code encode(decode(text))} is {@code text} for canonical text.
 */
public final class ItemJson {
    /** Deepest nesting of L and M values: an L or M directly in the item is level 1. */
    public static final int MAX_NESTING = 64;

    private static final int EXCERPT_CHARS = 24;
    private static final char[] HEX = "0123456789abcdef".toCharArray();
    private static final char[] BASE64 =
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".toCharArray();
    private static final byte[] BASE64_VALUES = new byte[128];

    static {
        Arrays.fill(BASE64_VALUES, (byte) -1);
        for (int i = 0; i < BASE64.length; i++) {
            BASE64_VALUES[BASE64[i]] = (byte) i;
        }
    }

    // Type tags, as the parser identifies them.
    private static final int S = 0;
    private static final int N = 1;
    private static final int B = 2;
    private static final int BOOL = 3;
    private static final int NULL = 4;
    private static final int L = 5;
    private static final int M = 6;
    private static final int SS = 7;
    private static final int NS = 8;
    private static final int BS = 9;
    private static final int UNKNOWN = -1;

    private ItemJson() {
    }

    // ------------------------------------------------------------------------------------------
    // Encoding

    /**
     * The canonical DynamoDB JSON text of {@code item}; a validation error if it nests L and M more
     * than {@value #MAX_NESTING} levels deep (such text could not be read back).
     *
     * @param item the item to encode
     * @return the item as DynamoDB JSON
     */
    public static String encode(Item item) {
        Checks.requireNonNull(item, "item");
        Writer out = new Writer();
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
        return out.text();
    }

    /** A growing char buffer the encoder writes into; one per encode. */
    private static final class Writer {
        private char[] buf = new char[512];
        private int len;

        String text() {
            return new String(buf, 0, len);
        }

        private void room(int more) {
            if (len + more > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + more));
            }
        }

        void append(char c) {
            if (len == buf.length) {
                room(1);
            }
            buf[len++] = c;
        }

        void append(String text) {
            int length = text.length();
            room(length);
            text.getChars(0, length, buf, len);
            len += length;
        }

        void value(AttributeValue value, int depth, String attribute) {
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
                base64(b.bytes());
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
                    base64(member);
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
        void string(String text) {
            int length = text.length();
            room(length + 2);
            buf[len++] = '"';
            text.getChars(0, length, buf, len);
            int start = len;
            len += length;
            for (int i = start; i < len; i++) {
                char c = buf[i];
                if (c < 0x20 || c == '"' || c == '\\') {
                    // Rewrite from the first character that needs escaping.
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

        /** Standard base64 with padding (RFC 4648 section 4). */
        private void base64(byte[] bytes) {
            int n = bytes.length;
            room((n + 2) / 3 * 4);
            char[] b = buf;
            int o = len;
            int whole = n - n % 3;
            for (int i = 0; i < whole; i += 3) {
                int bits = (bytes[i] & 0xFF) << 16 | (bytes[i + 1] & 0xFF) << 8 | (bytes[i + 2] & 0xFF);
                b[o++] = BASE64[bits >>> 18];
                b[o++] = BASE64[bits >>> 12 & 0x3F];
                b[o++] = BASE64[bits >>> 6 & 0x3F];
                b[o++] = BASE64[bits & 0x3F];
            }
            if (n - whole == 1) {
                int bits = (bytes[whole] & 0xFF) << 16;
                b[o++] = BASE64[bits >>> 18];
                b[o++] = BASE64[bits >>> 12 & 0x3F];
                b[o++] = '=';
                b[o++] = '=';
            } else if (n - whole == 2) {
                int bits = (bytes[whole] & 0xFF) << 16 | (bytes[whole + 1] & 0xFF) << 8;
                b[o++] = BASE64[bits >>> 18];
                b[o++] = BASE64[bits >>> 12 & 0x3F];
                b[o++] = BASE64[bits >>> 6 & 0x3F];
                b[o++] = '=';
            }
            len = o;
        }
    }

    private static void checkNesting(int depth, String attribute) {
        if (depth >= MAX_NESTING) {
            throw StorageException.validation("item attribute " + Checks.show(attribute)
                    + " nests L and M values more than " + MAX_NESTING + " levels deep");
        }
    }

    // ------------------------------------------------------------------------------------------
    // Decoding

    /**
     * The item in {@code json}, strictly parsed; anything but one DynamoDB JSON item is a validation
     * error naming the position. Numbers are taken as stored [S4] and never refused.
     *
     * @param json the DynamoDB JSON text of one item
     * @return the item
     */
    public static Item decode(String json) {
        if (json == null) {
            throw StorageException.validation("invalid item JSON: the text is null");
        }
        return new Parser(json).item();
    }

    /** An N read from storage [S4]: canonical text kept as is, other valid text normalised, invalid text raw. */
    private static AttributeValue.N storedNumber(String text) {
        return isCanonicalNumber(text) ? new AttributeValue.N(text) : AttributeValue.N.fromStored(text);
    }

    private static String storedNumberText(String text) {
        return isCanonicalNumber(text) ? text : AttributeValue.N.fromStored(text).text();
    }

    /**
     * Whether {@code text} is certainly the canonical form {@link DynamoNumber} would give it: a
     * plain decimal of at most 38 digits (so within every bound), no leading zero, no trailing
     * fraction zero, no sign on zero. A {@code false} only means "ask DynamoNumber".
     */
    static boolean isCanonicalNumber(String text) {
        int n = text.length();
        if (n == 0) {
            return false;
        }
        int i = 0;
        boolean negative = text.charAt(0) == '-';
        if (negative) {
            i++;
            if (n == 1) {
                return false;
            }
        }
        char c = text.charAt(i);
        int digits = 0;
        if (c == '0') {
            i++;
            digits++;
            if (i == n) {
                return !negative;
            }
            if (text.charAt(i) != '.') {
                return false;
            }
        } else if (c >= '1' && c <= '9') {
            while (i < n && (c = text.charAt(i)) >= '0' && c <= '9') {
                i++;
                digits++;
            }
            if (i == n) {
                return digits <= DynamoNumber.MAX_SIGNIFICANT_DIGITS;
            }
            if (c != '.') {
                return false;
            }
        } else {
            return false;
        }
        i++; // the point
        int fractionStart = i;
        while (i < n && (c = text.charAt(i)) >= '0' && c <= '9') {
            i++;
            digits++;
        }
        return i == n && i > fractionStart && text.charAt(n - 1) != '0'
                && digits <= DynamoNumber.MAX_SIGNIFICANT_DIGITS;
    }

    /** A cursor over the text; one per decode. */
    private static final class Parser {
        private final String s;
        private final int n;
        private int pos;

        // One stack of parsed members for the whole parse: an object's or array's members are
        // pushed, handed (through a view) to the value's constructor, which copies them, and popped.
        // A duplicate name shows up as a constructed map or set smaller than the members pushed.
        private String[] names = new String[32];
        private AttributeValue[] values = new AttributeValue[32];
        private int[] positions = new int[32];
        private int top;

        Parser(String s) {
            this.s = s;
            this.n = s.length();
        }

        private void push(String name, AttributeValue value, int at) {
            if (top == names.length) {
                names = Arrays.copyOf(names, top * 2);
                values = Arrays.copyOf(values, top * 2);
                positions = Arrays.copyOf(positions, top * 2);
            }
            names[top] = name;
            values[top] = value;
            positions[top] = at;
            top++;
        }

        /** The error for the first repeated name among the members from {@code from}. */
        private StorageException duplicate(int from, String what) {
            Set<String> seen = new HashSet<>();
            for (int i = from; i < top; i++) {
                if (!seen.add(names[i])) {
                    return fail(positions[i], "duplicate " + what + " " + Checks.show(names[i]));
                }
            }
            return fail(positions[from], "duplicate " + what); // unreachable: a smaller copy means a repeat
        }

        Item item() {
            skipWhitespace();
            if (pos >= n || s.charAt(pos) != '{') {
                throw fail(pos, "expected '{' to open the item");
            }
            pos++;
            members(0, "attribute name");
            Item item = new Item(new MemberMap(0, top));
            if (item.attributes().size() != top) {
                throw duplicate(0, "attribute name");
            }
            skipWhitespace();
            if (pos != n) {
                throw fail(pos, "unexpected characters after the item");
            }
            return item;
        }

        /** Pushes the members of an object whose '{' was just read, up to and including its '}'. */
        private void members(int depth, String what) {
            skipWhitespace();
            if (pos < n && s.charAt(pos) == '}') {
                pos++;
                return;
            }
            while (true) {
                skipWhitespace();
                int at = pos;
                String name = string(what);
                skipWhitespace();
                expect(':', "':' after the ", what);
                push(name, value(depth), at);
                skipWhitespace();
                if (pos < n) {
                    char c = s.charAt(pos++);
                    if (c == ',') {
                        continue;
                    }
                    if (c == '}') {
                        return;
                    }
                    pos--;
                }
                throw fail(pos, "expected ',' or '}' after the value of " + Checks.show(name));
            }
        }

        /** One typed value: {@code {"TAG":payload}} with exactly one tag. */
        private AttributeValue value(int depth) {
            skipWhitespace();
            expect('{', "'{' to open a typed value");
            skipWhitespace();
            int tagAt = pos;
            int tag = tag();
            skipWhitespace();
            expect(':', "':' after the type tag");
            skipWhitespace();
            AttributeValue value;
            switch (tag) {
                case S -> value = new AttributeValue.S(string("S value"));
                case N -> value = storedNumber(string("N value"));
                case B -> value = new AttributeValue.B(binary("B value"));
                case BOOL -> value = bool() ? AttributeValue.Bool.TRUE : AttributeValue.Bool.FALSE;
                case NULL -> {
                    int at = pos;
                    if (!bool()) {
                        throw fail(at, "NULL must be true");
                    }
                    value = AttributeValue.Null.INSTANCE;
                }
                case L -> value = list(depth + 1, tagAt);
                case M -> value = map(depth + 1, tagAt);
                case SS -> value = stringSet();
                case NS -> value = numberSet();
                case BS -> value = binarySet();
                default -> throw new IllegalStateException("tag " + tag);
            }
            skipWhitespace();
            if (pos < n && s.charAt(pos) == '}') {
                pos++;
                return value;
            }
            if (pos < n && s.charAt(pos) == ',') {
                throw fail(pos, "more than one type tag in one value");
            }
            throw fail(pos, "expected '}' to close the " + typeName(tag) + " value");
        }

        private int tag() {
            int at = pos;
            if (pos >= n || s.charAt(pos) != '"') {
                throw fail(pos, "expected a type tag string");
            }
            int start = pos + 1;
            int end = start;
            while (end < n) {
                char c = s.charAt(end);
                if (c == '"' || c == '\\' || c < 0x20) {
                    break;
                }
                end++;
            }
            if (end < n && s.charAt(end) == '"') {
                int tag = tagCode(s, start, end);
                if (tag != UNKNOWN) {
                    pos = end + 1;
                    return tag;
                }
            }
            String written = string("type tag");
            int tag = tagCode(written, 0, written.length());
            if (tag == UNKNOWN) {
                throw fail(at, "unknown type tag " + Checks.show(written));
            }
            return tag;
        }

        private AttributeValue.L list(int level, int tagAt) {
            if (level > MAX_NESTING) {
                throw fail(tagAt, "L and M nested more than " + MAX_NESTING + " levels deep");
            }
            int from = top;
            if (startArray("L")) {
                do {
                    push(null, value(level), 0);
                } while (!endOfArray("L"));
            }
            AttributeValue.L list = new AttributeValue.L(new MemberList(from, top));
            pop(from);
            return list;
        }

        private void pop(int from) {
            top = from; // the parser dies with the decode, so stale references need no clearing
        }

        private AttributeValue.M map(int level, int tagAt) {
            if (level > MAX_NESTING) {
                throw fail(tagAt, "L and M nested more than " + MAX_NESTING + " levels deep");
            }
            expect('{', "'{' to open the value of type M");
            int from = top;
            members(level, "M key");
            AttributeValue.M map = new AttributeValue.M(new MemberMap(from, top));
            if (map.values().size() != top - from) {
                throw duplicate(from, "M key");
            }
            pop(from);
            return map;
        }

        private AttributeValue.SS stringSet() {
            int from = top;
            if (startArray("SS")) {
                do {
                    skipWhitespace();
                    int at = pos;
                    push(string("SS member"), null, at);
                } while (!endOfArray("SS"));
            }
            AttributeValue.SS set = new AttributeValue.SS(new MemberSet(from, top));
            if (set.values().size() != top - from) {
                throw duplicate(from, "SS member");
            }
            pop(from);
            return set;
        }

        private AttributeValue.NS numberSet() {
            int from = top;
            if (startArray("NS")) {
                do {
                    skipWhitespace();
                    int at = pos;
                    push(storedNumberText(string("NS member")), null, at);
                } while (!endOfArray("NS"));
            }
            AttributeValue.NS set = new AttributeValue.NS(new MemberSet(from, top));
            if (set.values().size() != top - from) {
                throw duplicate(from, "NS member (as a number)");
            }
            pop(from);
            return set;
        }

        private AttributeValue.BS binarySet() {
            List<byte[]> members = new ArrayList<>();
            Set<ByteBuffer> seen = null;
            if (startArray("BS")) {
                do {
                    skipWhitespace();
                    int at = pos;
                    byte[] member = binary("BS member");
                    if (!members.isEmpty()) {
                        if (seen == null) {
                            seen = new HashSet<>();
                            seen.add(ByteBuffer.wrap(members.get(0)));
                        }
                        if (!seen.add(ByteBuffer.wrap(member))) {
                            throw fail(at, "duplicate BS member");
                        }
                    }
                    members.add(member);
                } while (!endOfArray("BS"));
            }
            return new AttributeValue.BS(members);
        }

        /** Reads '[' and, if the array is empty, its ']'; whether members follow. */
        private boolean startArray(String type) {
            expect('[', "'[' to open the value of type ", type);
            skipWhitespace();
            if (pos < n && s.charAt(pos) == ']') {
                pos++;
                return false;
            }
            return true;
        }

        /** After a member: true on ']', false on ',', else an error. */
        private boolean endOfArray(String type) {
            skipWhitespace();
            if (pos < n) {
                char c = s.charAt(pos++);
                if (c == ',') {
                    return false;
                }
                if (c == ']') {
                    return true;
                }
                pos--;
            }
            throw fail(pos, "expected ',' or ']' in the " + type + " value");
        }

        private boolean startsWith(String literal) {
            int length = literal.length();
            if (pos + length > n) {
                return false;
            }
            for (int i = 0; i < length; i++) {
                if (s.charAt(pos + i) != literal.charAt(i)) {
                    return false;
                }
            }
            return true;
        }

        private boolean bool() {
            if (startsWith("true")) {
                pos += 4;
                return true;
            }
            if (startsWith("false")) {
                pos += 5;
                return false;
            }
            throw fail(pos, "expected true or false");
        }

        /** A JSON string at the cursor, unescaped. */
        private String string(String what) {
            if (pos >= n || s.charAt(pos) != '"') {
                throw fail(pos, "expected a string for the " + what);
            }
            int start = pos + 1;
            for (int i = start; i < n; i++) {
                char c = s.charAt(i);
                if (c == '"') {
                    pos = i + 1;
                    return s.substring(start, i);
                }
                if (c == '\\' || c < 0x20) {
                    return escapedString(start, i);
                }
            }
            throw fail(pos, "unterminated string");
        }

        /** The rest of a string from its first escape (or stray control character) at {@code i}. */
        private String escapedString(int start, int i) {
            StringBuilder out = new StringBuilder(i - start + 16);
            out.append(s, start, i);
            while (i < n) {
                char c = s.charAt(i);
                if (c == '"') {
                    pos = i + 1;
                    return out.toString();
                }
                if (c < 0x20) {
                    throw fail(i, "unescaped control character U+00" + HEX[c >> 4] + HEX[c & 0xF] + " in a string");
                }
                if (c != '\\') {
                    out.append(c);
                    i++;
                    continue;
                }
                if (i + 1 >= n) {
                    break;
                }
                char e = s.charAt(i + 1);
                switch (e) {
                    case '"', '\\', '/' -> out.append(e);
                    case 'b' -> out.append('\b');
                    case 'f' -> out.append('\f');
                    case 'n' -> out.append('\n');
                    case 'r' -> out.append('\r');
                    case 't' -> out.append('\t');
                    case 'u' -> {
                        int code = 0;
                        for (int k = i + 2; k < i + 6; k++) {
                            int digit = k < n ? hexDigit(s.charAt(k)) : -1;
                            if (digit < 0) {
                                throw fail(i, "invalid \\u escape: four hex digits required");
                            }
                            code = code << 4 | digit;
                        }
                        out.append((char) code);
                        i += 4;
                    }
                    default -> throw fail(i, "invalid escape '\\" + e + "'");
                }
                i += 2;
            }
            throw fail(start - 1, "unterminated string");
        }

        /** A base64 string at the cursor, decoded strictly. */
        private byte[] binary(String what) {
            int at = pos;
            if (pos >= n || s.charAt(pos) != '"') {
                throw fail(pos, "expected a base64 string for the " + what);
            }
            int start = pos + 1;
            int end = start;
            while (end < n) {
                char c = s.charAt(end);
                if (c == '"' || c == '\\' || c < 0x20) {
                    break;
                }
                end++;
            }
            byte[] bytes;
            if (end < n && s.charAt(end) == '"') {
                bytes = base64(s, start, end);
                pos = end + 1;
            } else {
                String written = string(what);
                bytes = base64(written, 0, written.length());
            }
            if (bytes == null) {
                throw fail(at, "invalid base64 in the " + what);
            }
            return bytes;
        }

        private void expect(char c, String what) {
            expect(c, what, "");
        }

        /** Reads {@code c}, or fails with "expected " + what + detail (joined only on failure). */
        private void expect(char c, String what, String detail) {
            if (pos < n && s.charAt(pos) == c) {
                pos++;
                return;
            }
            throw fail(pos, "expected " + what + detail);
        }

        private void skipWhitespace() {
            while (pos < n) {
                char c = s.charAt(pos);
                if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                    return;
                }
                pos++;
            }
        }

        /** The pushed members {@code [from, to)} as a map, read once by the constructor that copies them. */
        private final class MemberMap extends AbstractMap<String, AttributeValue> {
            private final int from;
            private final int to;

            MemberMap(int from, int to) {
                this.from = from;
                this.to = to;
            }

            @Override
            public Set<Map.Entry<String, AttributeValue>> entrySet() {
                return new AbstractSet<>() {
                    @Override
                    public Iterator<Map.Entry<String, AttributeValue>> iterator() {
                        return new EntryCursor(from, to);
                    }

                    @Override
                    public int size() {
                        return to - from;
                    }
                };
            }
        }

        /**
         * Walks pushed members, itself being the entry it returns (valid until the next call): the
         * constructors read each entry's key and value at once and keep neither.
         */
        private final class EntryCursor implements Iterator<Map.Entry<String, AttributeValue>>,
                Map.Entry<String, AttributeValue> {
            private final int to;
            private int at;

            EntryCursor(int from, int to) {
                this.at = from - 1;
                this.to = to;
            }

            @Override
            public boolean hasNext() {
                return at + 1 < to;
            }

            @Override
            public Map.Entry<String, AttributeValue> next() {
                if (at + 1 >= to) {
                    throw new NoSuchElementException();
                }
                at++;
                return this;
            }

            @Override
            public String getKey() {
                return names[at];
            }

            @Override
            public AttributeValue getValue() {
                return values[at];
            }

            @Override
            public AttributeValue setValue(AttributeValue value) {
                throw new UnsupportedOperationException();
            }
        }

        /** The pushed values {@code [from, to)} as a list. */
        private final class MemberList extends AbstractList<AttributeValue> implements RandomAccess {
            private final int from;
            private final int to;

            MemberList(int from, int to) {
                this.from = from;
                this.to = to;
            }

            @Override
            public AttributeValue get(int index) {
                Objects.checkIndex(index, to - from);
                return values[from + index];
            }

            @Override
            public int size() {
                return to - from;
            }

            @Override
            public Object[] toArray() {
                return Arrays.copyOfRange(values, from, to, Object[].class);
            }
        }

        /** The pushed names {@code [from, to)} as a set (duplicates are caught by size afterwards). */
        private final class MemberSet extends AbstractSet<String> {
            private final int from;
            private final int to;

            MemberSet(int from, int to) {
                this.from = from;
                this.to = to;
            }

            @Override
            public Iterator<String> iterator() {
                return new Iterator<>() {
                    private int at = from;

                    @Override
                    public boolean hasNext() {
                        return at < to;
                    }

                    @Override
                    public String next() {
                        if (at >= to) {
                            throw new NoSuchElementException();
                        }
                        return names[at++];
                    }
                };
            }

            @Override
            public int size() {
                return to - from;
            }
        }

        private StorageException fail(int at, String what) {
            String where;
            if (at >= n) {
                where = "at position " + at + " (end of input)";
            } else {
                StringBuilder shown = new StringBuilder();
                int end = Math.min(n, at + EXCERPT_CHARS);
                for (int i = at; i < end; i++) {
                    char c = s.charAt(i);
                    if (c < 0x20) {
                        shown.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
                    } else {
                        shown.append(c);
                    }
                }
                where = "at position " + at + " ('" + shown + (end < n ? "...'" : "'") + ")";
            }
            return StorageException.validation("invalid item JSON " + where + ": " + what);
        }
    }

    private static int tagCode(String t, int start, int end) {
        switch (end - start) {
            case 1 -> {
                switch (t.charAt(start)) {
                    case 'S':
                        return S;
                    case 'N':
                        return N;
                    case 'B':
                        return B;
                    case 'L':
                        return L;
                    case 'M':
                        return M;
                    default:
                        return UNKNOWN;
                }
            }
            case 2 -> {
                if (t.charAt(start + 1) != 'S') {
                    return UNKNOWN;
                }
                switch (t.charAt(start)) {
                    case 'S':
                        return SS;
                    case 'N':
                        return NS;
                    case 'B':
                        return BS;
                    default:
                        return UNKNOWN;
                }
            }
            case 4 -> {
                if (t.charAt(start) == 'B' && t.charAt(start + 1) == 'O' && t.charAt(start + 2) == 'O' && t.charAt(start + 3) == 'L') {
                    return BOOL;
                }
                if (t.charAt(start) == 'N' && t.charAt(start + 1) == 'U' && t.charAt(start + 2) == 'L' && t.charAt(start + 3) == 'L') {
                    return NULL;
                }
                return UNKNOWN;
            }
            default -> {
                return UNKNOWN;
            }
        }
    }

    private static String typeName(int tag) {
        return switch (tag) {
            case S -> "S";
            case N -> "N";
            case B -> "B";
            case BOOL -> "BOOL";
            case NULL -> "NULL";
            case L -> "L";
            case M -> "M";
            case SS -> "SS";
            case NS -> "NS";
            default -> "BS";
        };
    }

    /**
     * Strict standard base64 of {@code text[start, end)}: length a multiple of four, padding only at
     * the end, unused bits zero (so every byte string has exactly one accepted text); null if not.
     */
    private static byte[] base64(String text, int start, int end) {
        int length = end - start;
        if (length % 4 != 0) {
            return null;
        }
        if (length == 0) {
            return new byte[0];
        }
        int padding = text.charAt(end - 1) != '=' ? 0 : text.charAt(end - 2) != '=' ? 1 : 2;
        byte[] out = new byte[length / 4 * 3 - padding];
        int o = 0;
        int lastQuad = end - 4;
        for (int i = start; i < lastQuad; i += 4) {
            int bits = sextet(text.charAt(i)) << 18 | sextet(text.charAt(i + 1)) << 12
                    | sextet(text.charAt(i + 2)) << 6 | sextet(text.charAt(i + 3));
            if (bits < 0) {
                return null;
            }
            out[o++] = (byte) (bits >> 16);
            out[o++] = (byte) (bits >> 8);
            out[o++] = (byte) bits;
        }
        int a = sextet(text.charAt(lastQuad));
        int b = sextet(text.charAt(lastQuad + 1));
        if ((a | b) < 0) {
            return null;
        }
        if (padding == 2) {
            if ((b & 0x0F) != 0) {
                return null;
            }
            out[o] = (byte) (a << 2 | b >> 4);
            return out;
        }
        int c = sextet(text.charAt(lastQuad + 2));
        if (c < 0) {
            return null;
        }
        if (padding == 1) {
            if ((c & 0x03) != 0) {
                return null;
            }
            out[o++] = (byte) (a << 2 | b >> 4);
            out[o] = (byte) (b << 4 | c >> 2);
            return out;
        }
        int d = sextet(text.charAt(lastQuad + 3));
        if (d < 0) {
            return null;
        }
        int bits = a << 18 | b << 12 | c << 6 | d;
        out[o++] = (byte) (bits >> 16);
        out[o++] = (byte) (bits >> 8);
        out[o] = (byte) bits;
        return out;
    }

    private static int hexDigit(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }

    /** The value of a base64 digit, or a negative number (with the sign bit set) if it is not one. */
    private static int sextet(char c) {
        return c < 128 ? BASE64_VALUES[c] : -1;
    }
}
