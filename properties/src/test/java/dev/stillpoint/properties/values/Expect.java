package dev.stillpoint.properties.values;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
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
}
