package dev.stillpoint.domain.request;

import dev.stillpoint.domain.error.StorageException;
import java.util.Locale;

/**
 * Strings must be well-formed UTF-16 [R4]: every backend stores text as UTF-8, where a lone
 * surrogate cannot exist, and some would silently store {@code '?'} instead. NUL is an ordinary
 * character and passes.
 */
public final class WellFormedText {

    private WellFormedText() {
    }

    /**
     * {@code text} if every surrogate in it is paired; otherwise a validation error naming {@code what}.
     *
     * @param text the string to check
     * @param what what the string is, for the message
     * @return {@code text}, unchanged
     */
    public static String require(String text, String what) {
        int bad = firstUnpairedSurrogate(text);
        if (bad >= 0) {
            throw StorageException.validation(what + " holds an unpaired UTF-16 surrogate U+"
                    + Integer.toHexString(text.charAt(bad)).toUpperCase(Locale.ROOT) + " at character " + bad
                    + "; strings must be well-formed Unicode");
        }
        return text;
    }

    /**
     * The index of the first unpaired surrogate in {@code text}, or -1 when there is none.
     *
     * @param text the string to search
     * @return the UTF-16 index of the first unpaired surrogate, or -1
     */
    public static int firstUnpairedSurrogate(String text) {
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 < n && Character.isLowSurrogate(text.charAt(i + 1))) {
                    i++;
                } else {
                    return i;
                }
            } else if (Character.isLowSurrogate(c)) {
                return i;
            }
        }
        return -1;
    }
}
