package dev.stillpoint.properties.errors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/** [D10] the one closed set of errors, and what a caller sees of each. */
class ErrorSetProperties {

    // [D10] the set is closed: exactly these eight reasons.
    @Example
    void d10_the_error_set_is_closed() {
        assertThat(ErrorReason.values()).containsExactly(ErrorReason.TABLE_NOT_FOUND, ErrorReason.RESOURCE_IN_USE,
                ErrorReason.LIMIT_EXCEEDED, ErrorReason.UNSUPPORTED, ErrorReason.SNAPSHOT_EXPIRED, ErrorReason.TRANSIENT,
                ErrorReason.VALIDATION, ErrorReason.INTERNAL);
    }

    // [D10] SnapshotExpired is retryable and maps to 503 like Transient; nothing else is retryable;
    // Internal is a 500 and every other reason a 400, each under DynamoDB's error name.
    @Property
    void d10_only_snapshot_expired_and_transient_are_retryable_503s(@ForAll ErrorReason reason) {
        boolean retryable = reason == ErrorReason.SNAPSHOT_EXPIRED || reason == ErrorReason.TRANSIENT;
        assertThat(reason.retryable()).isEqualTo(retryable);
        assertThat(reason.httpStatus()).isEqualTo(retryable ? 503 : reason == ErrorReason.INTERNAL ? 500 : 400);
        assertThat(reason.apiErrorName()).isEqualTo(switch (reason) {
            case TABLE_NOT_FOUND -> "ResourceNotFoundException";
            case RESOURCE_IN_USE -> "ResourceInUseException";
            case LIMIT_EXCEEDED -> "LimitExceededException";
            case UNSUPPORTED -> "UnsupportedOperationException";
            case SNAPSHOT_EXPIRED, TRANSIENT -> "ServiceUnavailable";
            case VALIDATION -> "ValidationException";
            case INTERNAL -> "InternalServerError";
        });
    }

    // [D10] each factory gives its reason and a message about what happened; Unsupported names the
    // backend; an internal error keeps its cause.
    @Example
    void d10_factories_give_their_reason_and_name_the_subject() {
        assertError(StorageException.tableNotFound("orders"), ErrorReason.TABLE_NOT_FOUND, "orders");
        assertError(StorageException.resourceInUse("table 'orders' is CREATING"), ErrorReason.RESOURCE_IN_USE,
                "table 'orders' is CREATING");
        assertError(StorageException.limitExceeded("all 4 snapshot permits are in use"), ErrorReason.LIMIT_EXCEEDED,
                "all 4 snapshot permits are in use");
        assertError(StorageException.unsupported("cassandra", "no consistent snapshot"), ErrorReason.UNSUPPORTED,
                "cassandra");
        assertThat(StorageException.unsupported("cassandra", "no consistent snapshot").getMessage())
                .contains("no consistent snapshot");
        assertError(StorageException.validation("bad name 'x'"), ErrorReason.VALIDATION, "bad name 'x'");
        IllegalStateException cause = new IllegalStateException("cursor lost");
        StorageException internal = StorageException.internal("CursorNotFound: cursor lost", cause);
        assertError(internal, ErrorReason.INTERNAL, "CursorNotFound: cursor lost");
        assertThat(internal.getCause()).isSameAs(cause);
        StorageException expired = new StorageException(ErrorReason.SNAPSHOT_EXPIRED, "SnapshotTooOld (239): too old");
        assertError(expired, ErrorReason.SNAPSHOT_EXPIRED, "SnapshotTooOld (239)");
        assertThat(expired).hasToString("StorageException[SNAPSHOT_EXPIRED]: SnapshotTooOld (239): too old");
    }

    // [D10] every error has a reason from the set: one without is refused.
    @Example
    void d10_an_error_without_a_reason_cannot_exist() {
        assertThatThrownBy(() -> new StorageException(null, "no reason")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("reason");
    }

    private static void assertError(StorageException e, ErrorReason reason, String named) {
        assertThat(e.reason()).isEqualTo(reason);
        assertThat(e.getMessage()).contains(named);
    }
}
