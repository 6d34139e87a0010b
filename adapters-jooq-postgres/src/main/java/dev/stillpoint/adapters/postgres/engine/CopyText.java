package dev.stillpoint.adapters.postgres.engine;

import java.math.BigDecimal;
import java.util.Arrays;

/**
 * Rows in COPY's text format, built in a byte buffer as UTF-8 (pgjdbc's sessions are UTF-8). A column is
 * ended by a tab, a row by a newline. In a value, COPY reads a backslash as an escape, so a backslash, a
 * tab, a newline and a carriage return are written as {@code \\}, {@code \t}, {@code \n} and {@code \r};
 * every other character stands for itself, U+0000 excepted (PostgreSQL text cannot hold it: key text
 * reaches here in {@code ItemKeys.keyText}'s form, and item JSON escapes every control character). A
 * bytea value is its hex form {@code \x...}, whose backslash is escaped in turn. A numeric value is
 * {@link BigDecimal#toString()}, the text pgjdbc sends for a numeric parameter.
 * See https://www.postgresql.org/docs/16/sql-copy.html ("Text Format").
 */
final class CopyText {

    private static final byte[] HEX = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private static final int INITIAL = 1 << 16;
    /** A buffer larger than this is given back when cleared: a relation that was big once does not keep it. */
    private static final int RETAINED = 1 << 20;

    private byte[] bytes = new byte[INITIAL];
    private int size;
    private int rows;

    /** Bytes held. */
    int size() {
        return size;
    }

    /** Rows ended so far. */
    int rows() {
        return rows;
    }

    byte[] bytes() {
        return bytes;
    }

    void clear() {
        size = 0;
        rows = 0;
        if (bytes.length > RETAINED) {
            bytes = new byte[INITIAL];
        }
    }

    /** A key column's value (S as key text, N as BigDecimal, B as bytes), then a tab. */
    void keyColumn(Object value) {
        if (value instanceof String s) {
            text(s);
        } else if (value instanceof BigDecimal n) {
            ascii(n.toString());
        } else if (value instanceof byte[] b) {
            ensure(3 + 2 * b.length);
            bytes[size++] = '\\';
            bytes[size++] = '\\';
            bytes[size++] = 'x';
            for (byte x : b) {
                bytes[size++] = HEX[(x >> 4) & 0xF];
                bytes[size++] = HEX[x & 0xF];
            }
        } else {
            throw new IllegalArgumentException("a key column holds S, N or B, got " + value);
        }
        put((byte) '\t');
    }

    /** The last column's text, then the newline that ends the row. */
    void lastColumn(String value) {
        text(value);
        put((byte) '\n');
        rows++;
    }

    /** {@code value} escaped for COPY's text format, encoded as UTF-8. */
    void text(String value) {
        int n = value.length();
        ensure(n + 16);
        for (int i = 0; i < n; i++) {
            char c = value.charAt(i);
            if (c < 0x80) {
                switch (c) {
                    case '\\' -> two('\\');
                    case '\t' -> two('t');
                    case '\n' -> two('n');
                    case '\r' -> two('r');
                    default -> put((byte) c);
                }
            } else if (c < 0x800) {
                ensure(2);
                bytes[size++] = (byte) (0xC0 | (c >> 6));
                bytes[size++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(value.charAt(i + 1))) {
                int cp = Character.toCodePoint(c, value.charAt(++i));
                ensure(4);
                bytes[size++] = (byte) (0xF0 | (cp >> 18));
                bytes[size++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                bytes[size++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                bytes[size++] = (byte) (0x80 | (cp & 0x3F));
            } else if (Character.isSurrogate(c)) {
                // The item rules refuse an unpaired surrogate [R4]; met here it is a bug, not data to store.
                throw new IllegalArgumentException("an unpaired surrogate at " + i + " of a value to COPY");
            } else {
                ensure(3);
                bytes[size++] = (byte) (0xE0 | (c >> 12));
                bytes[size++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                bytes[size++] = (byte) (0x80 | (c & 0x3F));
            }
        }
    }

    private void ascii(String value) {
        ensure(value.length());
        for (int i = 0; i < value.length(); i++) {
            bytes[size++] = (byte) value.charAt(i);
        }
    }

    private void two(char escaped) {
        ensure(2);
        bytes[size++] = '\\';
        bytes[size++] = (byte) escaped;
    }

    private void put(byte b) {
        ensure(1);
        bytes[size++] = b;
    }

    private void ensure(int more) {
        if (size + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
        }
    }
}
