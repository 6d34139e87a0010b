package dev.stillpoint.itemjson;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.stillpoint.domain.error.StorageException;
import java.io.IOException;

/**
 * Names why Jackson refused an item's text, and where: walks the item grammar over the raw text to
 * its first deviation and words it as the codec always has ("expected ':' after the attribute name",
 * "invalid escape", with the position and an excerpt). Jackson's own messages speak of its tokens
 * and point past the fault; the properties pin the codec's. It builds nothing and runs only for
 * text Jackson refused, so the checks Jackson's path makes first (duplicates, base64) are not
 * repeated here; the ones Jackson's look-ahead can pre-empt (tags, nesting, NULL) are.
 */
final class RefusalLocator {
    private final String s;
    private final int n;
    private int pos;

    private RefusalLocator(String s) {
        this.s = s;
        this.n = s.length();
    }

    /** The refusal of {@code text}, which Jackson refused with {@code cause}. */
    static StorageException locate(String text, IOException cause) {
        try {
            new RefusalLocator(text).item();
        } catch (StorageException refusal) {
            return refusal;
        }
        // The grammar found nothing: say what Jackson said, where it said it.
        int at = 0;
        String why = "unreadable JSON";
        if (cause instanceof JsonProcessingException j) {
            why = j.getOriginalMessage();
            if (j.getLocation() != null) {
                at = (int) Math.max(0, Math.min(text.length(), j.getLocation().getCharOffset()));
            }
        }
        return Refusal.at(text, at, why);
    }

    private void item() {
        skipWhitespace();
        expect('{', "'{' to open the item");
        members(0, "attribute name");
        skipWhitespace();
        if (pos != n) {
            throw fail(pos, "unexpected characters after the item");
        }
    }

    private void members(int depth, String what) {
        skipWhitespace();
        if (pos < n && s.charAt(pos) == '}') {
            pos++;
            return;
        }
        while (true) {
            skipWhitespace();
            String name = string(what);
            skipWhitespace();
            expect(':', "':' after the " + what);
            value(depth);
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
            throw fail(pos, "expected ',' or '}' after the value of " + Refusal.show(name));
        }
    }

    private void value(int depth) {
        skipWhitespace();
        expect('{', "'{' to open a typed value");
        skipWhitespace();
        int tagAt = pos;
        if (pos >= n || s.charAt(pos) != '"') {
            throw fail(pos, "expected a type tag string");
        }
        String written = string("type tag");
        TypeTag tag = TypeTag.of(written);
        if (tag == null) {
            throw fail(tagAt, "unknown type tag " + Refusal.show(written));
        }
        skipWhitespace();
        expect(':', "':' after the type tag");
        skipWhitespace();
        switch (tag) {
            case S, N -> string(tag + " value");
            case B -> binary("B value");
            case BOOL -> bool();
            case NULL -> {
                int at = pos;
                if (!bool()) {
                    throw fail(at, "NULL must be true");
                }
            }
            case L -> {
                nesting(depth + 1, tagAt);
                if (startArray("L")) {
                    do {
                        value(depth + 1);
                    } while (!endOfArray("L"));
                }
            }
            case M -> {
                nesting(depth + 1, tagAt);
                expect('{', "'{' to open the value of type M");
                members(depth + 1, "M key");
            }
            case SS, NS, BS -> {
                if (startArray(tag.name())) {
                    do {
                        skipWhitespace();
                        if (tag == TypeTag.BS) {
                            binary("BS member");
                        } else {
                            string(tag + " member");
                        }
                    } while (!endOfArray(tag.name()));
                }
            }
        }
        skipWhitespace();
        if (pos < n && s.charAt(pos) == '}') {
            pos++;
            return;
        }
        if (pos < n && s.charAt(pos) == ',') {
            throw fail(pos, "more than one type tag in one value");
        }
        throw fail(pos, "expected '}' to close the " + tag + " value");
    }

    private void nesting(int level, int tagAt) {
        if (level > ItemJson.MAX_NESTING) {
            throw fail(tagAt, "L and M nested more than " + ItemJson.MAX_NESTING + " levels deep");
        }
    }

    private boolean startArray(String type) {
        expect('[', "'[' to open the value of type " + type);
        skipWhitespace();
        if (pos < n && s.charAt(pos) == ']') {
            pos++;
            return false;
        }
        return true;
    }

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

    private boolean bool() {
        if (s.startsWith("true", pos)) {
            pos += 4;
            return true;
        }
        if (s.startsWith("false", pos)) {
            pos += 5;
            return false;
        }
        throw fail(pos, "expected true or false");
    }

    private void binary(String what) {
        if (pos >= n || s.charAt(pos) != '"') {
            throw fail(pos, "expected a base64 string for the " + what);
        }
        string(what);
    }

    /** A JSON string at the cursor, unescaped (names and tags appear in messages). */
    private String string(String what) {
        if (pos >= n || s.charAt(pos) != '"') {
            throw fail(pos, "expected a string for the " + what);
        }
        int start = pos + 1;
        StringBuilder out = new StringBuilder();
        int i = start;
        while (i < n) {
            char c = s.charAt(i);
            if (c == '"') {
                pos = i + 1;
                return out.toString();
            }
            if (c < 0x20) {
                throw fail(i, "unescaped control character U+00" + Refusal.controlName(c).substring(4)
                        + " in a string");
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
                    if (i + 6 > n) {
                        throw fail(i, "invalid \\u escape: four hex digits required");
                    }
                    try {
                        out.append((char) Integer.parseInt(hexDigits(i + 2), 16));
                    } catch (NumberFormatException notHex) {
                        throw fail(i, "invalid \\u escape: four hex digits required");
                    }
                    i += 4;
                }
                default -> throw fail(i, "invalid escape '\\" + e + "'");
            }
            i += 2;
        }
        throw fail(start - 1, "unterminated string");
    }

    /** The four characters from {@code from}, if all are ASCII hex digits (parseInt alone takes a sign and other scripts' digits). */
    private String hexDigits(int from) {
        String digits = s.substring(from, from + 4);
        for (int k = 0; k < 4; k++) {
            char c = digits.charAt(k);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F')) {
                throw new NumberFormatException();
            }
        }
        return digits;
    }

    private void expect(char c, String what) {
        if (pos < n && s.charAt(pos) == c) {
            pos++;
            return;
        }
        throw fail(pos, "expected " + what);
    }

    private void skipWhitespace() {
        pos = Refusal.skipWhitespace(s, pos);
    }

    private StorageException fail(int at, String what) {
        return Refusal.at(s, at, what);
    }
}
