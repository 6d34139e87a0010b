package dev.stillpoint.domain.error;

/**
 * The closed set of reasons a storage operation can fail for [D10], each with the API error name
 * and HTTP status a server answers with.
 */
public enum ErrorReason {
    /** The table does not exist (or is still CREATING) for this account. */
    TABLE_NOT_FOUND("ResourceNotFoundException", 400, false),
    /** The table is in use: its name is taken, or it is still CREATING or already DELETING. */
    RESOURCE_IN_USE("ResourceInUseException", 400, false),
    /** A bound was reached: every snapshot permit is out [D7, Q2]. */
    LIMIT_EXCEEDED("LimitExceededException", 400, false),
    /** The backend cannot do what was asked. */
    UNSUPPORTED("UnsupportedOperationException", 400, false),
    /** The server discarded the snapshot before the stream drained; opening a new one may work. */
    SNAPSHOT_EXPIRED("ServiceUnavailable", 503, true),
    /** A passing failure of the backend; the same request may succeed later. */
    TRANSIENT("ServiceUnavailable", 503, true),
    /** The request broke a rule: a name, a key, a type, a size. */
    VALIDATION("ValidationException", 400, false),
    /** A failure inside the storage layer, such as a damaged catalog entry. */
    INTERNAL("InternalServerError", 500, false);

    private final String apiErrorName;
    private final int httpStatus;
    private final boolean retryable;

    ErrorReason(String apiErrorName, int httpStatus, boolean retryable) {
        this.apiErrorName = apiErrorName;
        this.httpStatus = httpStatus;
        this.retryable = retryable;
    }

    /**
     * The DynamoDB error type a server reports for this reason.
     *
     * @return the error type, such as {@code ResourceNotFoundException}
     */
    public String apiErrorName() {
        return apiErrorName;
    }

    /**
     * The HTTP status a server answers with.
     *
     * @return the HTTP status code
     */
    public int httpStatus() {
        return httpStatus;
    }

    /**
     * Whether a client may retry the same request and expect it to succeed.
     *
     * @return true when a retry may succeed
     */
    public boolean retryable() {
        return retryable;
    }
}
