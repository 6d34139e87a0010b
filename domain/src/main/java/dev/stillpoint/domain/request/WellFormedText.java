package dev.stillpoint.domain.request;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Utf8Text;
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
        int bad = Utf8Text.firstUnpairedSurrogate(text);
        if (bad >= 0) {
            throw StorageException.validation(what + " holds an unpaired UTF-16 surrogate U+"
                    + Integer.toHexString(text.charAt(bad)).toUpperCase(Locale.ROOT) + " at character " + bad
                    + "; strings must be well-formed Unicode");
        }
        return text;
    }
}
