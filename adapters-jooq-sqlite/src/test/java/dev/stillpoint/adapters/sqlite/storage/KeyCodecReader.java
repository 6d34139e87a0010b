package dev.stillpoint.adapters.sqlite.storage;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Reads {@link KeyCodec}'s bytes back as the key values they encode: the tests' oracle that the encoding
 * is one-to-one (nothing in the adapter decodes a key; a snapshot takes the key from the item).
 */
final class KeyCodecReader {

    private KeyCodecReader() {
    }

    /** S: the string whose UTF-8 bytes {@code encoded} are; refuses bytes that are not UTF-8. */
    static String decodeString(byte[] encoded) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(encoded))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("encoded S key value is not UTF-8", e);
        }
    }

    /** B: the bytes themselves (copied). */
    static byte[] decodeBinary(byte[] encoded) {
        return encoded.clone();
    }

    /**
     * The number {@link KeyCodec#encodeNumber(BigDecimal)} encoded, without trailing zeros.
     *
     * @throws IllegalArgumentException if {@code encoded} is not such an encoding
     */
    static BigDecimal decodeNumber(byte[] encoded) {
        if (encoded.length == 0) {
            throw malformed(encoded, "empty");
        }
        int sign = encoded[0] & 0xFF;
        if (sign == KeyCodec.ZERO) {
            if (encoded.length != 1) {
                throw malformed(encoded, "zero followed by bytes");
            }
            return BigDecimal.ZERO;
        }
        int end;
        int mask;
        if (sign == KeyCodec.POSITIVE) {
            end = encoded.length;
            mask = 0;
        } else if (sign == KeyCodec.NEGATIVE) {
            if ((encoded[encoded.length - 1] & 0xFF) != KeyCodec.NEGATIVE_END) {
                throw malformed(encoded, "negative without its end byte");
            }
            end = encoded.length - 1;
            mask = 0xFF;
        } else {
            throw malformed(encoded, "unknown sign byte");
        }
        int pairs = end - 2;
        if (pairs < 1 || pairs > (KeyCodec.MAX_DIGITS + 1) / 2) {
            throw malformed(encoded, "wrong length");
        }
        int exponent = ((encoded[1] & 0xFF) ^ mask) - KeyCodec.EXPONENT_BIAS;
        StringBuilder digits = new StringBuilder(2 * pairs);
        for (int i = 0; i < pairs; i++) {
            int pair = ((encoded[2 + i] & 0xFF) ^ mask) - KeyCodec.PAIR_OFFSET;
            if (pair < 0 || pair > 99) {
                throw malformed(encoded, "digit pair out of range");
            }
            digits.append((char) ('0' + pair / 10)).append((char) ('0' + pair % 10));
        }
        if (digits.charAt(0) == '0') {
            throw malformed(encoded, "leading zero digit");
        }
        if (digits.charAt(digits.length() - 1) == '0') {
            digits.setLength(digits.length() - 1);
            if (digits.charAt(digits.length() - 1) == '0') {
                throw malformed(encoded, "trailing zero digits");
            }
        }
        BigInteger unscaled = new BigInteger(digits.toString());
        BigDecimal magnitude = new BigDecimal(unscaled, digits.length() - 1 - exponent);
        return sign == KeyCodec.NEGATIVE ? magnitude.negate() : magnitude;
    }

    private static IllegalArgumentException malformed(byte[] encoded, String reason) {
        return new IllegalArgumentException("not an encoded N key value (" + reason + "): " + hex(encoded));
    }

    private static String hex(byte[] bytes) {
        StringBuilder out = new StringBuilder(2 * bytes.length);
        for (byte b : bytes) {
            out.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
        }
        return out.toString();
    }
}
