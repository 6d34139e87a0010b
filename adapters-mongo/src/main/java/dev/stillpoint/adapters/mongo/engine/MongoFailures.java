package dev.stillpoint.adapters.mongo.engine;

import com.mongodb.MongoCommandException;
import com.mongodb.MongoCursorNotFoundException;
import com.mongodb.MongoException;
import com.mongodb.MongoInterruptedException;
import com.mongodb.MongoServerException;
import com.mongodb.MongoSocketException;
import com.mongodb.MongoTimeoutException;
import com.mongodb.MongoWriteConcernException;
import com.mongodb.MongoWriteException;
import com.mongodb.ReadConcern;
import dev.stillpoint.domain.error.DriverText;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;

/**
 * MongoDB's failures in the closed set [D10, M2]. Server errors are mapped by code, and the message
 * carries the server's code name and message (never the driver's dump of the whole reply):
 * <ul>
 *   <li>123 NotAReplicaSet: Unsupported, snapshots need a replica set member;</li>
 *   <li>239 SnapshotTooOld, 246 SnapshotUnavailable: SnapshotExpired (retryable);</li>
 *   <li>72 InvalidOptions: Internal, named (a read in a snapshot session without the snapshot level);</li>
 *   <li>43 CursorNotFound: Internal (an idle cursor timed out on the server);</li>
 *   <li>11000 DuplicateKey: ResourceInUse;</li>
 *   <li>errors labelled TransientTransactionError, timeouts, socket errors: Transient;</li>
 *   <li>anything else: Internal.</li>
 * </ul>
 */
public final class MongoFailures {

    static final int INVALID_OPTIONS = 72;
    static final int NOT_A_REPLICA_SET = 123;
    static final int CURSOR_NOT_FOUND = 43;
    static final int SNAPSHOT_TOO_OLD = 239;
    static final int SNAPSHOT_UNAVAILABLE = 246;
    static final int DUPLICATE_KEY = 11000;
    static final int NAMESPACE_NOT_FOUND = 26;

    private MongoFailures() {
    }

    /** The failure of {@code doing} (e.g. "reading table 't'") in the closed set. */
    public static StorageException map(String doing, RuntimeException e) {
        if (e instanceof StorageException s) {
            return s;
        }
        if (e instanceof MongoInterruptedException) {
            Thread.currentThread().interrupt();
            return new StorageException(ErrorReason.TRANSIENT, doing + " was interrupted", e);
        }
        if (e instanceof MongoTimeoutException || e instanceof MongoSocketException) {
            return new StorageException(ErrorReason.TRANSIENT, doing + ": MongoDB did not answer: "
                    + DriverText.firstLine(e.getMessage()), e);
        }
        if (!(e instanceof MongoException m)) {
            return StorageException.internal(doing + " failed: " + e, e);
        }
        int code = m.getCode();
        String named = doing + ": " + serverSays(m);
        if (e instanceof MongoCursorNotFoundException || code == CURSOR_NOT_FOUND) {
            return StorageException.internal(named + " (the snapshot's cursor was closed by the server, e.g. after"
                    + " cursorTimeoutMillis idle)", e);
        }
        if (code == NOT_A_REPLICA_SET) {
            return new StorageException(ErrorReason.UNSUPPORTED, named + " (MongoDB snapshot reads need a replica set"
                    + " member; this server is standalone)", e);
        }
        if (code == SNAPSHOT_TOO_OLD || code == SNAPSHOT_UNAVAILABLE) {
            return new StorageException(ErrorReason.SNAPSHOT_EXPIRED, named + " (the server no longer holds the"
                    + " snapshot's history; open a new snapshot)", e);
        }
        if (code == INVALID_OPTIONS) {
            return StorageException.internal(named + " (a read in a snapshot session must carry readConcern"
                    + " level \"snapshot\")", e);
        }
        if (code == DUPLICATE_KEY) {
            return new StorageException(ErrorReason.RESOURCE_IN_USE, named, e);
        }
        if (m.hasErrorLabel(MongoException.TRANSIENT_TRANSACTION_ERROR_LABEL)
                || m.hasErrorLabel(MongoException.UNKNOWN_TRANSACTION_COMMIT_RESULT_LABEL)) {
            return new StorageException(ErrorReason.TRANSIENT, named + " (transient; try again)", e);
        }
        return StorageException.internal(named, e);
    }

    /**
     * The refusal of a snapshot whose first read reported no snapshot time: the read did not carry
     * readConcern level snapshot, so the session has no instant to read the items at [M2].
     */
    static StorageException noSnapshotTime(String doing, ReadConcern used) {
        String level = used.getLevel() == null ? "the server's default" : "\"" + used.getLevel().getValue() + "\"";
        return StorageException.internal(doing + ": the first read reported no snapshot time; it was sent with"
                + " readConcern level " + level + ", and a snapshot needs level \"snapshot\" on every read", null);
    }

    /** "CodeName (code): message" as the server said it. */
    static String serverSays(MongoException m) {
        String name = null;
        String message = m.getMessage();
        if (m instanceof MongoCommandException c) {
            name = c.getErrorCodeName();
            message = c.getErrorMessage();
        } else if (m instanceof MongoWriteException w) {
            message = w.getError().getMessage();
        } else if (m instanceof MongoWriteConcernException w) {
            message = w.getWriteConcernError().getMessage();
            name = w.getWriteConcernError().getCodeName();
        } else if (m instanceof MongoServerException s) {
            name = s.getErrorCodeName();
        }
        String text = message == null || message.isEmpty() ? "(no message)" : message;
        if (m.getCode() < 0) {
            return text;   // the driver's own failure, not a server reply: it has no code
        }
        return (name == null || name.isEmpty() ? "code" : name) + " (" + m.getCode() + "): " + text;
    }
}
