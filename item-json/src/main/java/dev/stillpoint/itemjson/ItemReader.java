package dev.stillpoint.itemjson;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads one item from DynamoDB JSON with jackson-core's streaming parser, which does the lexing:
 * strings and their escapes, whitespace, structure. This class checks the shape on the tokens
 * (typed values, known tags, sets of the right member kind, nesting, duplicates, base64) and builds
 * the values. When Jackson itself refuses the text, {@link RefusalLocator} names the first deviation
 * as the codec always has.
 *
 * <p>Positions cost a location object each, so a first pass records none; a duplicate (the one
 * refusal that names an earlier position) is found again by a second pass that records them.
 */
final class ItemReader {
    private static final Base64.Decoder BASE64_DECODER = Base64.getDecoder();
    private static final Base64.Encoder BASE64_ENCODER = Base64.getEncoder();

    private final String text;
    private final JsonParser in;
    private final boolean tracking;
    private final MemberStack stack = new MemberStack();

    private ItemReader(String text, JsonParser in, boolean tracking) {
        this.text = text;
        this.in = in;
        this.tracking = tracking;
    }

    static Item read(JsonFactory json, String text) {
        int start = Refusal.skipWhitespace(text, 0);
        if (start >= text.length() || text.charAt(start) != '{') {
            throw Refusal.at(text, start, "expected '{' to open the item");
        }
        try {
            return read(json, text, false);
        } catch (Retrack again) {
            return read(json, text, true);
        }
    }

    private static Item read(JsonFactory json, String text, boolean tracking) {
        try (JsonParser in = json.createParser(text)) {
            return new ItemReader(text, in, tracking).item();
        } catch (IOException e) {
            throw RefusalLocator.locate(text, e);
        }
    }

    private Item item() throws IOException {
        in.nextToken(); // the '{' seen above
        members(0, "attribute name");
        Item item = new Item(stack.map(0));
        if (item.attributes().size() != stack.top()) {
            throw duplicate(0, "attribute name");
        }
        int after = Refusal.skipWhitespace(text, (int) in.currentLocation().getCharOffset());
        if (after != text.length()) {
            throw Refusal.at(text, after, "unexpected characters after the item");
        }
        return item;
    }

    /** Pushes the members of an object whose '{' is the current token, up to and including its '}'. */
    private void members(int depth, String what) throws IOException {
        while (in.nextToken() != JsonToken.END_OBJECT) {
            String name = in.currentName(); // Jackson allows only a name or '}' here
            int at = tracking ? tokenStart() : 0;
            in.nextToken();
            stack.push(name, value(depth), at);
        }
    }

    /** One typed value {@code {"TAG":payload}}, from its first token to its '}'. */
    private AttributeValue value(int depth) throws IOException {
        if (in.currentToken() != JsonToken.START_OBJECT) {
            throw refuse("expected '{' to open a typed value");
        }
        if (in.nextToken() != JsonToken.FIELD_NAME) {
            throw refuse("expected a type tag string");
        }
        TypeTag tag = TypeTag.of(in.currentName());
        if (tag == null) {
            throw refuse("unknown type tag " + Refusal.show(in.currentName()));
        }
        if ((tag == TypeTag.L || tag == TypeTag.M) && depth + 1 > ItemJson.MAX_NESTING) {
            throw refuse("L and M nested more than " + ItemJson.MAX_NESTING + " levels deep");
        }
        in.nextToken();
        AttributeValue value = switch (tag) {
            case S -> new AttributeValue.S(string("S value"));
            case N -> StoredNumbers.number(string("N value"));
            case B -> new AttributeValue.B(binary("B value"));
            case BOOL -> bool() ? AttributeValue.Bool.TRUE : AttributeValue.Bool.FALSE;
            case NULL -> {
                if (!bool()) {
                    throw refuse("NULL must be true");
                }
                yield AttributeValue.Null.INSTANCE;
            }
            case L -> list(depth + 1);
            case M -> map(depth + 1);
            case SS -> stringSet();
            case NS -> numberSet();
            case BS -> binarySet();
        };
        if (in.nextToken() != JsonToken.END_OBJECT) {
            // A second name: the refusal points at the comma before it, as the text reads.
            int at = tokenStart() - 1;
            while (text.charAt(at) != ',') {
                at--;
            }
            throw Refusal.at(text, at, "more than one type tag in one value");
        }
        return value;
    }

    private AttributeValue.L list(int level) throws IOException {
        startArray("L");
        int from = stack.top();
        while (in.nextToken() != JsonToken.END_ARRAY) {
            stack.push(null, value(level), 0);
        }
        AttributeValue.L list = new AttributeValue.L(stack.list(from));
        stack.pop(from);
        return list;
    }

    private AttributeValue.M map(int level) throws IOException {
        if (in.currentToken() != JsonToken.START_OBJECT) {
            throw refuse("expected '{' to open the value of type M");
        }
        int from = stack.top();
        members(level, "M key");
        AttributeValue.M map = new AttributeValue.M(stack.map(from));
        if (map.values().size() != stack.top() - from) {
            throw duplicate(from, "M key");
        }
        stack.pop(from);
        return map;
    }

    private AttributeValue.SS stringSet() throws IOException {
        startArray("SS");
        int from = stack.top();
        while (in.nextToken() != JsonToken.END_ARRAY) {
            int at = tracking ? tokenStart() : 0;
            stack.push(string("SS member"), null, at);
        }
        AttributeValue.SS set = new AttributeValue.SS(stack.set(from));
        if (set.values().size() != stack.top() - from) {
            throw duplicate(from, "SS member");
        }
        stack.pop(from);
        return set;
    }

    private AttributeValue.NS numberSet() throws IOException {
        startArray("NS");
        int from = stack.top();
        while (in.nextToken() != JsonToken.END_ARRAY) {
            int at = tracking ? tokenStart() : 0;
            stack.push(StoredNumbers.memberText(string("NS member")), null, at);
        }
        AttributeValue.NS set = new AttributeValue.NS(stack.set(from));
        if (set.values().size() != stack.top() - from) {
            throw duplicate(from, "NS member (as a number)");
        }
        stack.pop(from);
        return set;
    }

    private AttributeValue.BS binarySet() throws IOException {
        startArray("BS");
        List<byte[]> members = new ArrayList<>();
        Set<ByteBuffer> seen = null;
        while (in.nextToken() != JsonToken.END_ARRAY) {
            byte[] member = binary("BS member");
            if (!members.isEmpty()) {
                if (seen == null) {
                    seen = new HashSet<>();
                    seen.add(ByteBuffer.wrap(members.get(0)));
                }
                if (!seen.add(ByteBuffer.wrap(member))) {
                    throw refuse("duplicate BS member");
                }
            }
            members.add(member);
        }
        return new AttributeValue.BS(members);
    }

    private void startArray(String type) {
        if (in.currentToken() != JsonToken.START_ARRAY) {
            throw refuse("expected '[' to open the value of type " + type);
        }
    }

    private String string(String what) throws IOException {
        if (in.currentToken() != JsonToken.VALUE_STRING) {
            throw refuse("expected a string for the " + what);
        }
        return in.getText();
    }

    private boolean bool() {
        JsonToken t = in.currentToken();
        if (t == JsonToken.VALUE_TRUE) {
            return true;
        }
        if (t == JsonToken.VALUE_FALSE) {
            return false;
        }
        throw refuse("expected true or false");
    }

    /** A base64 string, strictly: the JDK's decoder, and only the one canonical spelling of the bytes. */
    private byte[] binary(String what) throws IOException {
        if (in.currentToken() != JsonToken.VALUE_STRING) {
            throw refuse("expected a base64 string for the " + what);
        }
        byte[] bytes = strictBase64(in.getText());
        if (bytes == null) {
            throw refuse("invalid base64 in the " + what);
        }
        return bytes;
    }

    /**
     * Standard padded base64 (RFC 4648 section 4) with unused bits zero, so every byte string has
     * exactly one accepted text; null if not. The JDK's decoder takes missing padding and ignores
     * unused bits, so the length is checked first and the last group is compared with its encoding.
     */
    static byte[] strictBase64(String written) {
        int length = written.length();
        if (length % 4 != 0) {
            return null;
        }
        byte[] bytes;
        try {
            bytes = BASE64_DECODER.decode(written);
        } catch (IllegalArgumentException e) {
            return null;
        }
        int tail = bytes.length % 3;
        if (tail != 0) {
            byte[] group = BASE64_ENCODER.encode(Arrays.copyOfRange(bytes, bytes.length - tail, bytes.length));
            for (int i = 0; i < 4; i++) {
                if (written.charAt(length - 4 + i) != group[i]) {
                    return null;
                }
            }
        }
        return bytes;
    }

    private int tokenStart() {
        return (int) in.currentTokenLocation().getCharOffset();
    }

    /** The refusal at the current token. */
    private StorageException refuse(String what) {
        return Refusal.at(text, tokenStart(), what);
    }

    /** The error for the first repeated name among the members from {@code from}; found again with positions. */
    private RuntimeException duplicate(int from, String what) {
        if (!tracking) {
            return Retrack.AGAIN;
        }
        int i = stack.firstRepeat(from);
        return Refusal.at(text, stack.position(i), "duplicate " + what + " " + Refusal.show(stack.name(i)));
    }

    /** Asks {@link #read} for the pass that records positions; thrown only for text that is refused anyway. */
    private static final class Retrack extends RuntimeException {
        private static final long serialVersionUID = 1L;
        static final Retrack AGAIN = new Retrack();

        private Retrack() {
            super(null, null, false, false);
        }
    }
}
