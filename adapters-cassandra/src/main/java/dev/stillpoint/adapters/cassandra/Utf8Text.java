package dev.stillpoint.adapters.cassandra;

import dev.stillpoint.domain.error.StorageException;

/**
 * Cassandra stores {@code text} as UTF-8 and the driver encodes Java strings with the JDK's UTF-8
 * encoder, which silently replaces an unpaired surrogate with {@code '?'}. The domain lets a string
 * hold one (DynamoDB JSON can spell it as an escape), so the adapter refuses such text before it is
 * written, rather than store a different item or key than it was given.
 */
final class Utf8Text {

    private Utf8Text() {
    }

    /** {@code text} if it is well-formed UTF-16 (every surrogate paired); else a validation error naming it. */
    static String requireWellFormed(String text, String what) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw StorageException.validation(what + " holds an unpaired surrogate U+"
                        + Integer.toHexString(c).toUpperCase(java.util.Locale.ROOT) + " at character " + i
                        + "; Cassandra stores text as UTF-8, which cannot represent it");
            }
        }
        return text;
    }
}
