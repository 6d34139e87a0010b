package dev.stillpoint.adapters.mongo.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.MongoCommandException;
import com.mongodb.MongoCursorNotFoundException;
import com.mongodb.MongoQueryException;
import com.mongodb.MongoSocketReadException;
import com.mongodb.MongoTimeoutException;
import com.mongodb.ServerAddress;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonString;
import org.bson.BsonTimestamp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The error mapping [M2, D10], built from the reply documents a server sends (as the driver builds
 * its exceptions from them), no server needed. Each message must carry the server's code name and
 * message, and none of the rest of the reply.
 *
 * <p>Mutants run by hand: SnapshotTooOld's constant set to SnapshotUnavailable's (246) -> the 239 row
 * fails ("SnapshotExpired" expected, INTERNAL found); the 123 branch removed -> the NotAReplicaSet row
 * fails; the message built from {@code getMessage()} (the driver's dump) -> "no reply dump" fails.
 */
class MongoFailuresTest {

    private static final ServerAddress SERVER = new ServerAddress("db.example", 27017);

    @ParameterizedTest(name = "{0} {1} -> {2}")
    @CsvSource({
            "123, NotAReplicaSet,      UNSUPPORTED,      not running with --replSet",
            "239, SnapshotTooOld,      SNAPSHOT_EXPIRED, Read timestamp is older than the oldest available timestamp",
            "246, SnapshotUnavailable, SNAPSHOT_EXPIRED, Unable to read from a snapshot due to pending collection catalog changes",
            "72,  InvalidOptions,      INTERNAL,         readConcern level must be snapshot in a snapshot session",
            "43,  CursorNotFound,      INTERNAL,         cursor id 42 not found",
            "11000, DuplicateKey,      RESOURCE_IN_USE,  E11000 duplicate key error collection",
            "2,   BadValue,            INTERNAL,         something else entirely",
    })
    void m2_serverRepliesMapByCode(int code, String codeName, ErrorReason reason, String errmsg) {
        MongoCommandException e = new MongoCommandException(reply(code, codeName, errmsg), SERVER);

        StorageException mapped = MongoFailures.map("reading table 't'", e);

        assertThat(mapped.reason()).isEqualTo(reason);
        assertThat(mapped.getMessage()).startsWith("reading table 't': " + codeName + " (" + code + "): " + errmsg);
        assertThat(mapped.getMessage()).as("no reply dump").doesNotContain("operationTime").doesNotContain("$clusterTime")
                .doesNotContain("\"ok\"");
        assertThat(mapped.getCause()).isSameAs(e);
    }

    @Test
    void m2_snapshotExpiredIsRetryableAndNamesWhatToDo() {
        StorageException mapped = MongoFailures.map("reading", new MongoQueryException(
                reply(239, "SnapshotTooOld", "Read timestamp is too old"), SERVER));
        assertThat(mapped.reason().retryable()).isTrue();
        assertThat(mapped.reason().httpStatus()).isEqualTo(503);
        assertThat(mapped.getMessage()).contains("open a new snapshot");
    }

    @Test
    void m2_notAReplicaSetSaysSnapshotsNeedOne() {
        StorageException mapped = MongoFailures.map("reading", new MongoCommandException(
                reply(123, "NotAReplicaSet", "Cannot use snapshot read concern on a standalone"), SERVER));
        assertThat(mapped.reason()).isEqualTo(ErrorReason.UNSUPPORTED);
        assertThat(mapped.getMessage()).contains("need a replica set member");
    }

    @Test
    void m2_aCursorTheServerForgotIsInternal() {
        MongoCursorNotFoundException e = new MongoCursorNotFoundException(42L,
                reply(43, "CursorNotFound", "cursor id 42 not found"), SERVER);
        StorageException mapped = MongoFailures.map("reading a page", e);
        assertThat(mapped.reason()).isEqualTo(ErrorReason.INTERNAL);
        assertThat(mapped.getMessage()).contains("CursorNotFound (43): cursor id 42 not found")
                .contains("cursorTimeoutMillis");
    }

    @Test
    void d10_transientTransactionErrorsAndUnreachableServersAreTransient() {
        BsonDocument labelled = reply(112, "WriteConflict", "Write conflict during plan execution")
                .append("errorLabels", new BsonArray(java.util.List.of(new BsonString("TransientTransactionError"))));
        assertThat(MongoFailures.map("writing", new MongoCommandException(labelled, SERVER)).reason())
                .isEqualTo(ErrorReason.TRANSIENT);
        assertThat(MongoFailures.map("writing", new MongoTimeoutException("Timed out after 30000 ms")).reason())
                .isEqualTo(ErrorReason.TRANSIENT);
        assertThat(MongoFailures.map("writing", new MongoSocketReadException("Prematurely reached end of stream", SERVER))
                .reason()).isEqualTo(ErrorReason.TRANSIENT);
    }

    @Test
    void d10_aStorageExceptionPassesThroughAndOtherFailuresAreInternal() {
        StorageException own = StorageException.tableNotFound("t");
        assertThat(MongoFailures.map("x", own)).isSameAs(own);
        StorageException other = MongoFailures.map("decoding", new IllegalStateException("boom"));
        assertThat(other.reason()).isEqualTo(ErrorReason.INTERNAL);
        assertThat(other.getMessage()).contains("decoding").contains("boom");
    }

    // [M2] a first read with no snapshot time is refused naming the read concern it was sent with.
    @Test
    void m2_noSnapshotTimeNamesTheReadConcern() {
        StorageException majority = MongoFailures.noSnapshotTime("opening 't'", com.mongodb.ReadConcern.MAJORITY);
        assertThat(majority.reason()).isEqualTo(ErrorReason.INTERNAL);
        assertThat(majority.getMessage()).contains("no snapshot time").contains("level \"majority\"")
                .contains("needs level \"snapshot\"");
        assertThat(MongoFailures.noSnapshotTime("x", com.mongodb.ReadConcern.DEFAULT).getMessage())
                .contains("the server's default");
    }

    /** A reply as a server sends it: ok 0, the error, and the fields that must not reach a message. */
    static BsonDocument reply(int code, String codeName, String errmsg) {
        return new BsonDocument("ok", new BsonInt32(0))
                .append("errmsg", new BsonString(errmsg))
                .append("code", new BsonInt32(code))
                .append("codeName", new BsonString(codeName))
                .append("$clusterTime", new BsonDocument("clusterTime", new BsonTimestamp(1700000000, 1))
                        .append("signature", new BsonDocument("keyId", new BsonInt64(0))))
                .append("operationTime", new BsonTimestamp(1700000000, 1));
    }
}
