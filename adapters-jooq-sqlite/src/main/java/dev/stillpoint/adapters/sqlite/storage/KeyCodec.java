package dev.stillpoint.adapters.sqlite.storage;

import dev.stillpoint.domain.item.Utf8Text;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Order-preserving byte encodings of DynamoDB key values, one value per column.
 *
 * <p>SQLite compares BLOBs with {@code memcmp}, that is as unsigned bytes, shorter prefix first. Each
 * encoding here is chosen so that this comparison ({@link Arrays#compareUnsigned(byte[], byte[])})
 * equals DynamoDB's order for the key type (D2):
 *
 * <ul>
 *   <li>S: the UTF-8 bytes. UTF-8 byte order is code point order, which is DynamoDB's S order. No
 *       terminator: the value has its column to itself.
 *   <li>B: the bytes themselves.
 *   <li>N: see {@link #encodeNumber(BigDecimal)}.
 * </ul>
 *
 * <p>Only the encoders are here: nothing in the adapter reads a key back from its bytes (a snapshot takes
 * the key from the item); the tests' {@code KeyCodecReader} decodes them, to show no two keys share bytes.
 *
 * <p>The key of a hash-only table stores {@link #absentSortKey()} (the empty blob) as its sort key;
 * empty S and B key values are refused upstream (D3a), so the empty blob never means anything else.
 */
public final class KeyCodec {

    /** DynamoDB's N precision: at most 38 significant digits. */
    public static final int MAX_DIGITS = 38;
    /** Smallest decimal exponent of an N's leading digit: 1E-130. */
    public static final int MIN_EXPONENT = -130;
    /** Largest decimal exponent of an N's leading digit: 9.99...E125. */
    public static final int MAX_EXPONENT = 125;

    static final int NEGATIVE = 0x40;
    static final int ZERO = 0x80;
    static final int POSITIVE = 0xC0;
    /** Ends a negative number; above every complemented digit byte (at most 0xFE). */
    static final int NEGATIVE_END = 0xFF;
    static final int EXPONENT_BIAS = -MIN_EXPONENT;
    /** Digit pairs 00..99 are stored as 1..100, so a complemented pair never reaches 0xFF. */
    static final int PAIR_OFFSET = 1;

    private KeyCodec() {
    }

    /** The sort key stored for a table or index without a sort key. */
    public static byte[] absentSortKey() {
        return new byte[0];
    }

    /** S: the UTF-8 bytes of {@code value}; refuses a string that is not valid Unicode (lone surrogate). */
    public static byte[] encodeString(String value) {
        // Every key of every write and of every exported item comes here: String.getBytes is the JDK's fast
        // path, and the one string it would spoil (a lone surrogate, written as '?') is refused first.
        if (Utf8Text.firstUnpairedSurrogate(value) >= 0) {
            throw new IllegalArgumentException("S key value is not valid Unicode");
        }
        return value.getBytes(StandardCharsets.UTF_8);
    }

    /** B: the bytes themselves (copied). */
    public static byte[] encodeBinary(byte[] value) {
        return value.clone();
    }

    /**
     * N: an order-preserving encoding of a DynamoDB number.
     *
     * <p>Write the value as {@code ±d1.d2d3...dn × 10^e} with {@code d1 != 0} and no trailing zero
     * digit ({@code n <= 38}, {@code -130 <= e <= 125}). Then:
     *
     * <ul>
     *   <li>zero: {@code [0x80]};
     *   <li>positive: {@code [0xC0, e + 130, p1, p2, ...]}, where {@code p1, p2, ...} are the digits
     *       taken two at a time ({@code d1d2}, {@code d3d4}, ...; an odd last digit is paired with 0),
     *       each pair stored as its value plus one (1..100);
     *   <li>negative: {@code [0x40]}, then the bitwise complement of the positive form's exponent and
     *       pair bytes, then {@code 0xFF}.
     * </ul>
     *
     * <p>Why this orders like the numbers: the sign byte separates negatives, zero and positives.
     * Among positives a larger exponent means a larger number (the leading digit is not 0), and for
     * equal exponents the digit strings compare lexicographically, a proper prefix first, which is
     * exactly how unsigned bytes compare (pairing keeps lexicographic order because the padding 0 is
     * the smallest digit and a normalised string never ends in 0). The complement reverses all of
     * that for negatives; the final 0xFF, above every complemented pair (at most 0xFE), puts a
     * shorter digit string (the number nearer zero) after its extensions. At most 22 bytes.
     *
     * @param value a DynamoDB number; trailing zeros are ignored
     * @throws IllegalArgumentException if it has more than 38 significant digits or its magnitude is
     *     outside 1E-130 .. 9.99E125
     */
    public static byte[] encodeNumber(BigDecimal value) {
        return encodeNumber(value.stripTrailingZeros().toPlainString(), value);
    }

    /**
     * N from its plain decimal text, as {@link #encodeNumber(BigDecimal)} encodes its value: what a key's
     * write and an export's key check call with DynamoNumber's canonical text, so no {@code BigDecimal}
     * is made per key. Leading and trailing zeros are ignored.
     *
     * @param plain an optional '-', decimal digits and at most one point; no exponent
     * @throws IllegalArgumentException if it is not such text, has more than 38 significant digits or
     *     its magnitude is outside 1E-130 .. 9.99E125
     */
    public static byte[] encodeNumber(String plain) {
        return encodeNumber(plain, plain);
    }

    /** {@link #encodeNumber(String)}, a refusal naming the number as {@code shown} gives it. */
    private static byte[] encodeNumber(String plain, Object shown) {
        int n = plain.length();
        int start = n > 0 && plain.charAt(0) == '-' ? 1 : 0;
        int point = plain.indexOf('.', start);
        int first = start;
        while (first < n && (plain.charAt(first) == '0' || plain.charAt(first) == '.')) {
            first++;
        }
        int last = n - 1;
        while (last >= first && (plain.charAt(last) == '0' || plain.charAt(last) == '.')) {
            last--;
        }
        if (start == n || (point >= 0 && plain.indexOf('.', point + 1) >= 0)) {
            throw new IllegalArgumentException("not a plain decimal N key value: '" + plain + "'");
        }
        if (first > last) {
            return new byte[] {(byte) ZERO};
        }
        int pointAt = point < 0 ? n : point;
        // The leading digit's exponent: its distance from the point (the point itself not counted after it).
        long exponent = first < pointAt ? pointAt - first - 1 : pointAt - first;
        int digitCount = last - first + 1 - (first < pointAt && pointAt < last ? 1 : 0);
        if (digitCount > MAX_DIGITS) {
            throw new IllegalArgumentException(
                    "N key value has more than " + MAX_DIGITS + " significant digits: " + shown);
        }
        if (exponent < MIN_EXPONENT || exponent > MAX_EXPONENT) {
            throw new IllegalArgumentException("N key value out of range 1E-130 .. 9.99E125: " + shown);
        }
        boolean positive = start == 0;
        int pairs = (digitCount + 1) / 2;
        byte[] out = new byte[positive ? 2 + pairs : 3 + pairs];
        int mask = positive ? 0 : 0xFF;
        out[0] = (byte) (positive ? POSITIVE : NEGATIVE);
        out[1] = (byte) (((int) exponent + EXPONENT_BIAS) ^ mask);
        int at = first;
        for (int i = 0; i < pairs; i++) {
            int high = digit(plain, at++);
            if (at < last + 1 && plain.charAt(at) == '.') {
                at++;
            }
            int low = at <= last ? digit(plain, at++) : 0;
            if (at < last + 1 && plain.charAt(at) == '.') {
                at++;
            }
            out[2 + i] = (byte) ((high * 10 + low + PAIR_OFFSET) ^ mask);
        }
        if (!positive) {
            out[out.length - 1] = (byte) NEGATIVE_END;
        }
        return out;
    }

    private static int digit(String plain, int at) {
        char c = plain.charAt(at);
        if (c < '0' || c > '9') {
            throw new IllegalArgumentException("not a plain decimal N key value: '" + plain + "'");
        }
        return c - '0';
    }
}
