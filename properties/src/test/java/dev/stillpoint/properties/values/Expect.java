package dev.stillpoint.properties.values;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import java.util.regex.Pattern;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/** The one shape of a refusal: a VALIDATION StorageException whose message names what was wrong. */
final class Expect {
    private Expect() {
    }

    static void validation(ThrowingCallable call, String... named) {
        assertThatThrownBy(call).isInstanceOfSatisfying(StorageException.class, e -> {
            assertThat(e.reason()).isEqualTo(ErrorReason.VALIDATION);
            if (named.length > 0) {
                assertThat(e.getMessage()).contains(named);
            }
        });
    }

    private static final Pattern CONTROL = Pattern.compile("[\\x00-\\x1F\\x7F\\u2028\\u2029]");

    /** {@code text} as a refusal shows it [R6]: each control character as its backslash-u escape, the rest as is. */
    static String shown(String text) {
        return CONTROL.matcher(text).replaceAll(m -> java.util.regex.Matcher.quoteReplacement(
                String.format("\\u%04X", (int) m.group().charAt(0))));
    }
}
