package dev.stillpoint.domain.error;

/**
 * The closed set of reasons a storage operation can fail for [D10], each with the API error name
 * and HTTP status a server answers with.
 */
public enum ErrorReason {
    TABLE_NOT_FOUND("ResourceNotFoundException", 400, false),
    RESOURCE_IN_USE("ResourceInUseException", 400, false),
    LIMIT_EXCEEDED("LimitExceededException", 400, false),
    UNSUPPORTED("UnsupportedOperationException", 400, false),
    /** The server discarded the snapshot before the stream drained; opening a new one may work. */
    SNAPSHOT_EXPIRED("ServiceUnavailable", 503, true),
    TRANSIENT("ServiceUnavailable", 503, true),
    VALIDATION("ValidationException", 400, false),
    INTERNAL("InternalServerError", 500, false);

    private final String apiErrorName;
    private final int httpStatus;
    private final boolean retryable;

    ErrorReason(String apiErrorName, int httpStatus, boolean retryable) {
        this.apiErrorName = apiErrorName;
        this.httpStatus = httpStatus;
        this.retryable = retryable;
    }

    /** The DynamoDB error type a server reports for this reason. */
    public String apiErrorName() {
        return apiErrorName;
    }

    /** The HTTP status a server answers with. */
    public int httpStatus() {
        return httpStatus;
    }

    /** Whether a client may retry the same request and expect it to succeed. */
    public boolean retryable() {
        return retryable;
    }
}
