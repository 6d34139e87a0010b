package dev.stillpoint.itemjson;

import dev.stillpoint.domain.item.Utf8Text;
import java.nio.charset.StandardCharsets;

/**
 * The UTF-8 bytes {@link ItemParser} reads for a text given as a {@code String}. A string may hold
 * an unpaired surrogate (the writer writes one as is), which has no UTF-8 form: the JDK's encoder
 * writes {@code '?'} for it. So a text whose bytes hold a {@code '?'} is checked, and each unpaired
 * surrogate is given to the parser as the escape {@code \}{@code uXXXX}, which reads back as the same
 * character inside a string and is refused, as the raw character is, outside one.
 */
final class JsonBytes {

    private JsonBytes() {
    }

    static byte[] of(String json) {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        if (!holdsQuestionMark(bytes) || Utf8Text.firstUnpairedSurrogate(json) < 0) {
            return bytes;
        }
        return escapeUnpairedSurrogates(json).getBytes(StandardCharsets.UTF_8);
    }

    /** {@code json} with each unpaired surrogate written as its escape (see {@link ItemJson#escapeUnpairedSurrogates}). */
    static String escapeUnpairedSurrogates(String json) {
        StringBuilder escaped = new StringBuilder(json.length() + 16);
        int n = json.length();
        for (int i = 0; i < n; i++) {
            char c = json.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(json.charAt(i + 1))) {
                escaped.append(c).append(json.charAt(++i));
            } else if (Character.isSurrogate(c)) {
                escaped.append(String.format("\\u%04x", (int) c));
            } else {
                escaped.append(c);
            }
        }
        return escaped.toString();
    }

    private static boolean holdsQuestionMark(byte[] bytes) {
        for (byte x : bytes) {
            if (x == '?') {
                return true;
            }
        }
        return false;
    }
}
