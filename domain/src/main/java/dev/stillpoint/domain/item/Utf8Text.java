package dev.stillpoint.domain.item;

import dev.stillpoint.domain.error.StorageException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Whether a Java string can be stored as UTF-8 unchanged. The domain lets a string hold an unpaired
 * surrogate (DynamoDB JSON can spell one as an escape), but a backend that stores text as UTF-8
 * through the JDK's encoder (Cassandra's {@code text}, BSON strings) would silently replace it with
 * {@code '?'}: such backends refuse the value before it is written rather than store a different one.
 * The other way round, text a backend hands over as bytes may not be UTF-8 at all (a SQLite text column
 * holds whatever a client wrote); {@link #firstMalformedByte} finds that before the bytes are read as text,
 * where the JDK would silently put U+FFFD in their place.
 */
public final class Utf8Text {

    private Utf8Text() {
    }

    /**
     * {@code text} if it is well-formed UTF-16 (every surrogate paired); otherwise a validation error
     * naming {@code what}, the surrogate and its position, and {@code backend}'s reason.
     *
     * @param text the string to check
     * @param what what the string is, for the message
     * @param backend the backend's name, for the reason it gives
     * @return {@code text}, unchanged
     */
    public static String requireWellFormed(String text, String what, String backend) {
        int i = firstUnpairedSurrogate(text);
        if (i >= 0) {
            throw StorageException.validation(what + " holds an unpaired surrogate U+"
                    + Integer.toHexString(text.charAt(i)).toUpperCase(Locale.ROOT) + " at character " + i
                    + "; " + backend + " stores text as UTF-8, which cannot represent it");
        }
        return text;
    }

    /**
     * The index of the first unpaired surrogate in {@code text}, or -1 when every surrogate is paired:
     * the one statement of well-formed UTF-16 that the request rules [R4] and the backends' guards share.
     *
     * @param text the string to search
     * @return the UTF-16 index of the first unpaired surrogate, or -1
     */
    public static int firstUnpairedSurrogate(String text) {
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * {@code key} if each of its S values is well-formed; otherwise the validation error above.
     *
     * @param key the key to check
     * @param backend the backend's name, for the message
     * @return {@code key}, unchanged
     */
    public static Key requireWellFormed(Key key, String backend) {
        if (key.partition() instanceof AttributeValue.S s) {
            requireWellFormed(s.value(), "key", backend);
        }
        if (key.sort().isPresent() && key.sort().get() instanceof AttributeValue.S s) {
            requireWellFormed(s.value(), "key", backend);
        }
        return key;
    }

    /**
     * Where {@code bytes} stop being well-formed UTF-8: the offset of the first byte of the first
     * ill-formed sequence (a stray continuation byte, an overlong form, an encoded surrogate, a code
     * point above U+10FFFF, or a sequence cut short, also by the end), or -1 when all of it is
     * well-formed. The JDK's own UTF-8 decoder decides, asked to report rather than replace.
     *
     * @param bytes the bytes to check; not changed
     * @return the offset of the first ill-formed sequence, or -1
     */
    public static int firstMalformedByte(byte[] bytes) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        // The characters are thrown away: a small buffer, reused, holds them (2 at least, for a surrogate pair).
        CharBuffer out = CharBuffer.allocate(Math.max(2, Math.min(bytes.length, 1024)));
        while (true) {
            CoderResult result = decoder.decode(in, out, true);
            if (result.isError()) {
                return in.position();
            }
            if (!result.isOverflow()) {
                return -1;
            }
            out.clear();
        }
    }
}
