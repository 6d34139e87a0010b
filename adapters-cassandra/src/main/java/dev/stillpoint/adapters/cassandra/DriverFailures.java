package dev.stillpoint.adapters.cassandra;

import static dev.stillpoint.domain.error.ErrorReason.INTERNAL;
import static dev.stillpoint.domain.error.ErrorReason.RESOURCE_IN_USE;
import static dev.stillpoint.domain.error.ErrorReason.TRANSIENT;
import static dev.stillpoint.domain.error.ErrorReason.VALIDATION;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.DriverExecutionException;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.InvalidKeyspaceException;
import com.datastax.oss.driver.api.core.NodeUnavailableException;
import com.datastax.oss.driver.api.core.RequestThrottlingException;
import com.datastax.oss.driver.api.core.auth.AuthenticationException;
import com.datastax.oss.driver.api.core.connection.BusyConnectionException;
import com.datastax.oss.driver.api.core.connection.ClosedConnectionException;
import com.datastax.oss.driver.api.core.connection.ConnectionInitException;
import com.datastax.oss.driver.api.core.connection.HeartbeatException;
import com.datastax.oss.driver.api.core.servererrors.AlreadyExistsException;
import com.datastax.oss.driver.api.core.servererrors.BootstrappingException;
import com.datastax.oss.driver.api.core.servererrors.CASWriteUnknownException;
import com.datastax.oss.driver.api.core.servererrors.CDCWriteFailureException;
import com.datastax.oss.driver.api.core.servererrors.DefaultWriteType;
import com.datastax.oss.driver.api.core.servererrors.FunctionFailureException;
import com.datastax.oss.driver.api.core.servererrors.InvalidConfigurationInQueryException;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import com.datastax.oss.driver.api.core.servererrors.OverloadedException;
import com.datastax.oss.driver.api.core.servererrors.ProtocolError;
import com.datastax.oss.driver.api.core.servererrors.ReadFailureException;
import com.datastax.oss.driver.api.core.servererrors.ReadTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.ServerError;
import com.datastax.oss.driver.api.core.servererrors.SyntaxError;
import com.datastax.oss.driver.api.core.servererrors.TruncateException;
import com.datastax.oss.driver.api.core.servererrors.UnauthorizedException;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import com.datastax.oss.driver.api.core.servererrors.WriteFailureException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import dev.stillpoint.domain.error.DriverText;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * Maps the driver's errors into the closed set [D10]. The message names what was being done, the
 * server's own error code (the native protocol's name, e.g. {@code WRITE_TIMEOUT}; a client-side
 * failure is named by the driver's exception) and the first line of the server's message; never a
 * stack trace. The driver exception stays attached as the cause, for logs.
 *
 * <ul>
 *   <li>Transient (retryable, 503): read/write timeouts, CAS_WRITE_UNKNOWN, UNAVAILABLE, OVERLOADED,
 *       IS_BOOTSTRAPPING, TRUNCATE_ERROR, the client's own request timeout, no node reachable,
 *       throttled, busy or closed connections;</li>
 *   <li>Validation: SYNTAX_ERROR, INVALID, CONFIG_ERROR (the statement or its values were refused);</li>
 *   <li>ResourceInUse: ALREADY_EXISTS;</li>
 *   <li>Internal: everything else (READ_FAILURE, WRITE_FAILURE, UNAUTHORIZED, SERVER_ERROR, ...).</li>
 * </ul>
 */
final class DriverFailures {

    private DriverFailures() {
    }

    /** The closed-set error for {@code failure}, which happened while {@code doing}. */
    static StorageException map(String doing, Throwable failure) {
        Throwable e = unwrap(failure);
        if (e instanceof StorageException s) {
            return s;
        }
        Classified c = classify(e);
        return new StorageException(c.reason, doing + ": " + c.code + ": " + DriverText.firstLine(e.getMessage()), e);
    }

    /**
     * Whether {@code failure} says the statement's table or keyspace does not exist: the table was
     * dropped by a DeleteTable while this request ran.
     */
    static boolean isMissingTable(Throwable failure) {
        Throwable e = unwrap(failure);
        if (e instanceof StorageException s && s.getCause() != null && s.getCause() != s) {
            e = unwrap(s.getCause());
        }
        if (e instanceof InvalidKeyspaceException) {
            return true;
        }
        if (!(e instanceof InvalidQueryException) || e.getMessage() == null) {
            return false;
        }
        String m = e.getMessage().toLowerCase(Locale.ROOT);
        return m.startsWith("unconfigured table") || (m.contains("keyspace") && m.contains("does not exist"))
                || (m.contains("table") && m.contains("does not exist"));
    }

    /** Runs {@code work}; a statement refused because its table was dropped meanwhile is TableNotFound. */
    static <T> T whileTableExists(String tableName, String doing, Supplier<T> work) {
        try {
            return work.get();
        } catch (StorageException e) {
            if (isMissingTable(e)) {
                throw new StorageException(ErrorReason.TABLE_NOT_FOUND, "table '" + tableName + "' was deleted while "
                        + doing + ": " + e.getMessage(), e);
            }
            throw e;
        }
    }

    /**
     * Whether {@code failure}, of a lightweight transaction, leaves its outcome unknown: a CAS write
     * timeout, CAS_WRITE_UNKNOWN, or the client's own timeout (the request may still be applied).
     * A serial read tells.
     */
    static boolean isCasUncertain(Throwable failure) {
        Throwable e = unwrap(failure);
        if (e instanceof StorageException s && s.getCause() != null && s.getCause() != s) {
            e = unwrap(s.getCause());
        }
        return e instanceof CASWriteUnknownException || e instanceof DriverTimeoutException
                || (e instanceof WriteTimeoutException w && w.getWriteType() == DefaultWriteType.CAS);
    }

    /** A class of driver failure, its reason in the closed set and the code name a message shows. */
    private record Classified(Class<? extends Throwable> type, ErrorReason reason, String code) {
    }

    /** In match order: subclasses before their parents (CAS_WRITE_UNKNOWN, CONFIG_ERROR, ALREADY_EXISTS first). */
    private static final List<Classified> CLASSES = List.of(
            new Classified(CASWriteUnknownException.class, TRANSIENT, "CAS_WRITE_UNKNOWN"),
            new Classified(ReadTimeoutException.class, TRANSIENT, "READ_TIMEOUT"),
            new Classified(WriteTimeoutException.class, TRANSIENT, "WRITE_TIMEOUT"),
            new Classified(UnavailableException.class, TRANSIENT, "UNAVAILABLE"),
            new Classified(OverloadedException.class, TRANSIENT, "OVERLOADED"),
            new Classified(BootstrappingException.class, TRANSIENT, "IS_BOOTSTRAPPING"),
            new Classified(TruncateException.class, TRANSIENT, "TRUNCATE_ERROR"),
            new Classified(DriverTimeoutException.class, TRANSIENT, "client request timeout"),
            new Classified(AllNodesFailedException.class, TRANSIENT, "no node available"),
            // Client-side conditions have no server code name: named in the same style, never by Java class [R6].
            new Classified(NodeUnavailableException.class, TRANSIENT, "NODE_UNAVAILABLE"),
            new Classified(RequestThrottlingException.class, TRANSIENT, "REQUEST_THROTTLED"),
            new Classified(BusyConnectionException.class, TRANSIENT, "CONNECTION_BUSY"),
            new Classified(ClosedConnectionException.class, TRANSIENT, "CONNECTION_CLOSED"),
            new Classified(HeartbeatException.class, TRANSIENT, "HEARTBEAT_FAILED"),
            new Classified(ConnectionInitException.class, TRANSIENT, "CONNECTION_INIT_FAILED"),
            new Classified(SyntaxError.class, VALIDATION, "SYNTAX_ERROR"),
            new Classified(InvalidConfigurationInQueryException.class, VALIDATION, "CONFIG_ERROR"),
            new Classified(AlreadyExistsException.class, RESOURCE_IN_USE, "ALREADY_EXISTS"),
            new Classified(InvalidQueryException.class, VALIDATION, "INVALID"),
            new Classified(InvalidKeyspaceException.class, VALIDATION, "INVALID"),
            new Classified(CDCWriteFailureException.class, INTERNAL, "CDC_WRITE_FAILURE"),
            new Classified(ReadFailureException.class, INTERNAL, "READ_FAILURE"),
            new Classified(WriteFailureException.class, INTERNAL, "WRITE_FAILURE"),
            new Classified(FunctionFailureException.class, INTERNAL, "FUNCTION_FAILURE"),
            new Classified(UnauthorizedException.class, INTERNAL, "UNAUTHORIZED"),
            new Classified(AuthenticationException.class, INTERNAL, "BAD_CREDENTIALS"),
            new Classified(ProtocolError.class, INTERNAL, "PROTOCOL_ERROR"),
            new Classified(ServerError.class, INTERNAL, "SERVER_ERROR"));

    private static final Classified UNEXPECTED = new Classified(Throwable.class, INTERNAL, "UNEXPECTED_CLIENT_FAILURE");

    private static Classified classify(Throwable e) {
        return CLASSES.stream().filter(c -> c.type().isInstance(e)).findFirst().orElse(UNEXPECTED);
    }

    private static Throwable unwrap(Throwable e) {
        Throwable t = e;
        while ((t instanceof CompletionException || t instanceof ExecutionException
                || t instanceof DriverExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
