package dev.stillpoint.itemjson;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.DynamoNumber;
import dev.stillpoint.domain.item.Item;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The item grammar over a {@link TextCursor}, one parser per decode: an object of typed values
 * {@code {"TAG":payload}}, each refusal naming its position. Values are built as they are read,
 * members through one {@link MemberStack}. Hand-written rather than on jackson-core's parser because
 * it is faster on the same rows (see {@link ItemJson}).
 */
final class ItemParser extends TextCursor {
    private static final Base64.Decoder BASE64_DECODER = Base64.getDecoder();

    private final MemberStack stack = new MemberStack();

    ItemParser(byte[] utf8) {
        super(utf8);
    }

    Item item() {
        skipWhitespace();
        if (!at('{')) {
            throw fail(pos, "expected '{' to open the item");
        }
        pos++;
        members(0, "attribute name");
        Item item = new Item(stack.map(0));
        if (item.attributes().size() != stack.top()) {
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
        if (at('}')) {
            pos++;
            return;
        }
        while (true) {
            skipWhitespace();
            int at = pos;
            String name = name(what);
            skipWhitespace();
            expect(':', "':' after the ", what);
            stack.push(name, value(depth), at);
            skipWhitespace();
            if (pos < n) {
                byte c = b[pos++];
                if (c == ',') {
                    continue;
                }
                if (c == '}') {
                    return;
                }
                pos--;
            }
            throw fail(pos, "expected ',' or '}' after the value of " + Refusal.show(name));
        }
    }

    /** One typed value: {@code {"TAG":payload}} with exactly one tag. */
    private AttributeValue value(int depth) {
        skipWhitespace();
        expect('{', "'{' to open a typed value");
        skipWhitespace();
        int tagAt = pos;
        TypeTag tag = tag();
        skipWhitespace();
        expect(':', "':' after the type tag");
        skipWhitespace();
        AttributeValue value = switch (tag) {
            case S -> new AttributeValue.S(string("S value"));
            // Read as stored [S4]: canonical text kept, other valid text normalised, invalid text raw, never refused.
            case N -> AttributeValue.N.fromStored(string("N value"));
            case B -> new AttributeValue.B(binary("B value"));
            case BOOL -> bool() ? AttributeValue.Bool.TRUE : AttributeValue.Bool.FALSE;
            case NULL -> {
                int at = pos;
                if (!bool()) {
                    throw fail(at, "NULL must be true");
                }
                yield AttributeValue.Null.INSTANCE;
            }
            case L -> list(depth + 1, tagAt);
            case M -> map(depth + 1, tagAt);
            case SS -> stringSet();
            case NS -> numberSet();
            case BS -> binarySet();
        };
        skipWhitespace();
        if (at('}')) {
            pos++;
            return value;
        }
        if (at(',')) {
            throw fail(pos, "more than one type tag in one value");
        }
        throw fail(pos, "expected '}' to close the " + tag + " value");
    }

    private TypeTag tag() {
        int at = pos;
        if (!at('"')) {
            throw fail(pos, "expected a type tag string");
        }
        int end = plainStringEnd();
        if (end >= 0) {
            TypeTag tag = TypeTag.of(b, pos + 1, end);
            if (tag != null) {
                pos = end + 1;
                return tag;
            }
        }
        String written = string("type tag"); // escaped, or unknown: read it whole for the message
        byte[] spelled = written.getBytes(StandardCharsets.UTF_8);
        TypeTag tag = TypeTag.of(spelled, 0, spelled.length);
        if (tag == null) {
            throw fail(at, "unknown type tag " + Refusal.show(written));
        }
        return tag;
    }

    private void checkLevel(int level, int tagAt) {
        if (level > ItemJson.MAX_NESTING) {
            throw fail(tagAt, "L and M nested more than " + ItemJson.MAX_NESTING + " levels deep");
        }
    }

    private AttributeValue.L list(int level, int tagAt) {
        checkLevel(level, tagAt);
        int from = stack.top();
        if (startArray("L")) {
            do {
                stack.push(null, value(level), 0);
            } while (!endOfArray("L"));
        }
        AttributeValue.L list = new AttributeValue.L(stack.list(from));
        stack.pop(from);
        return list;
    }

    private AttributeValue.M map(int level, int tagAt) {
        checkLevel(level, tagAt);
        expect('{', "'{' to open the value of type M");
        int from = stack.top();
        members(level, "M key");
        AttributeValue.M map = new AttributeValue.M(stack.map(from));
        if (map.values().size() != stack.top() - from) {
            throw duplicate(from, "M key");
        }
        stack.pop(from);
        return map;
    }

    private AttributeValue.SS stringSet() {
        int from = stack.top();
        if (startArray("SS")) {
            do {
                skipWhitespace();
                int at = pos;
                stack.push(string("SS member"), null, at);
            } while (!endOfArray("SS"));
        }
        AttributeValue.SS set = new AttributeValue.SS(stack.set(from));
        if (set.values().size() != stack.top() - from) {
            throw duplicate(from, "SS member");
        }
        stack.pop(from);
        return set;
    }

    private AttributeValue.NS numberSet() {
        int from = stack.top();
        if (startArray("NS")) {
            do {
                skipWhitespace();
                int at = pos;
                String member = string("NS member");
                stack.push(DynamoNumber.tryNormalise(member).orElse(member), null, at);
            } while (!endOfArray("NS"));
        }
        AttributeValue.NS set = new AttributeValue.NS(stack.set(from));
        if (set.values().size() != stack.top() - from) {
            throw duplicate(from, "NS member (as a number)");
        }
        stack.pop(from);
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
        if (at(']')) {
            pos++;
            return false;
        }
        return true;
    }

    /** After a member: true on ']', false on ',', else an error. */
    private boolean endOfArray(String type) {
        skipWhitespace();
        if (pos < n) {
            byte c = b[pos++];
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

    /** A base64 string at the cursor, decoded strictly. */
    private byte[] binary(String what) {
        int at = pos;
        if (!at('"')) {
            throw fail(pos, "expected a base64 string for the " + what);
        }
        int end = plainStringEnd();
        String written;
        if (end >= 0) {
            written = new String(b, pos + 1, end - pos - 1, StandardCharsets.ISO_8859_1); // ASCII
            pos = end + 1;
        } else {
            written = string(what);
        }
        byte[] bytes = strictBase64(written);
        if (bytes == null) {
            throw fail(at, "invalid base64 in the " + what);
        }
        return bytes;
    }

    /** The bytes of canonical base64 text ({@link Base64Text}); null for any other text. */
    static byte[] strictBase64(String written) {
        return Base64Text.isCanonical(written) ? BASE64_DECODER.decode(written) : null;
    }

    /** The error for the first repeated name among the members from {@code from}. */
    private StorageException duplicate(int from, String what) {
        int i = stack.firstRepeat(from);
        return fail(stack.position(i), "duplicate " + what + " " + Refusal.show(stack.name(i)));
    }
}
