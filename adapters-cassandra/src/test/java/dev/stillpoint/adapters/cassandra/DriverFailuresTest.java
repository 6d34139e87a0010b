package dev.stillpoint.adapters.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.NoNodeAvailableException;
import com.datastax.oss.driver.api.core.servererrors.AlreadyExistsException;
import com.datastax.oss.driver.api.core.servererrors.CASWriteUnknownException;
import com.datastax.oss.driver.api.core.servererrors.DefaultWriteType;
import com.datastax.oss.driver.api.core.servererrors.InvalidConfigurationInQueryException;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import com.datastax.oss.driver.api.core.servererrors.OverloadedException;
import com.datastax.oss.driver.api.core.servererrors.ReadTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.ServerError;
import com.datastax.oss.driver.api.core.servererrors.SyntaxError;
import com.datastax.oss.driver.api.core.servererrors.UnauthorizedException;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import dev.stillpoint.adapters.cassandra.node.CassandraNode;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * [D10] The driver's errors mapped into the closed set, with the server's code and message and never
 * a stack dump: each driver exception type, and real ones from the node (a syntax error, an invalid
 * query, an unconfigured table, a client timeout, an unreachable cluster).
 */
class DriverFailuresTest extends OnSharedNode {


    static void assertMapped(Throwable driver, ErrorReason reason, String code) {
        StorageException e = DriverFailures.map("doing something", driver);
        assertThat(e.reason()).as("%s", driver).isEqualTo(reason);
        assertThat(e.getMessage()).startsWith("doing something: " + code + ": ");
        assertClean(e);
    }

    static void assertClean(StorageException e) {
        assertThat(e.getMessage()).as("no stack dump").doesNotContain("\n").doesNotContain("\tat ");
    }

    @Test
    void timeoutsUnavailableAndOverloadedAreTransient() {
        ConsistencyLevel one = DefaultConsistencyLevel.ONE;
        assertMapped(new ReadTimeoutException(null, one, 0, 1, false), ErrorReason.TRANSIENT, "READ_TIMEOUT");
        assertMapped(new WriteTimeoutException(null, one, 0, 1, DefaultWriteType.SIMPLE), ErrorReason.TRANSIENT, "WRITE_TIMEOUT");
        assertMapped(new WriteTimeoutException(null, one, 0, 1, DefaultWriteType.CAS), ErrorReason.TRANSIENT, "WRITE_TIMEOUT");
        assertMapped(new CASWriteUnknownException(null, DefaultConsistencyLevel.SERIAL, 0, 1), ErrorReason.TRANSIENT, "CAS_WRITE_UNKNOWN");
        assertMapped(new UnavailableException(null, DefaultConsistencyLevel.QUORUM, 2, 1), ErrorReason.TRANSIENT, "UNAVAILABLE");
        assertMapped(new OverloadedException(null, "Server is in overloaded state"), ErrorReason.TRANSIENT, "OVERLOADED");
        assertMapped(new DriverTimeoutException("Query timed out after PT2S"), ErrorReason.TRANSIENT, "client request timeout");
        assertMapped(new NoNodeAvailableException(), ErrorReason.TRANSIENT, "no node available");
        assertMapped(new CompletionException(new OverloadedException(null, "busy")), ErrorReason.TRANSIENT, "OVERLOADED");
        assertThat(ErrorReason.TRANSIENT.retryable()).isTrue();
    }

    @Test
    void badInputIsValidationAndTheRestIsInternal() {
        assertMapped(new SyntaxError(null, "line 1:0 no viable alternative at input 'SELEC'"), ErrorReason.VALIDATION, "SYNTAX_ERROR");
        assertMapped(new InvalidQueryException(null, "Undefined column name nosuch"), ErrorReason.VALIDATION, "INVALID");
        assertMapped(new InvalidConfigurationInQueryException(null, "bad option"), ErrorReason.VALIDATION, "CONFIG_ERROR");
        assertMapped(new AlreadyExistsException(null, "ks", "t"), ErrorReason.RESOURCE_IN_USE, "ALREADY_EXISTS");
        assertMapped(new ServerError(null, "java.lang.NullPointerException"), ErrorReason.INTERNAL, "SERVER_ERROR");
        assertMapped(new UnauthorizedException(null, "no permission"), ErrorReason.INTERNAL, "UNAUTHORIZED");
        assertMapped(new IllegalStateException("Session is closed"), ErrorReason.INTERNAL, "UNEXPECTED_CLIENT_FAILURE");
        StorageException multiLine = DriverFailures.map("x", new InvalidQueryException(null, "first line\n\tat some.Frame(X.java:1)"));
        assertThat(multiLine.getMessage()).isEqualTo("x: INVALID: first line");
        StorageException same = StorageException.validation("already mapped");
        assertThat(DriverFailures.map("x", same)).isSameAs(same);
    }

    @Test
    void realServerErrorsCarryTheServersMessage() {
        StorageException syntax = (StorageException) catchThrowable(() -> storage.cql().run("running CQL", "SELEC * FROM system.local"));
        assertThat(syntax.reason()).isEqualTo(ErrorReason.VALIDATION);
        assertThat(syntax.getMessage()).startsWith("running CQL: SYNTAX_ERROR: ").contains("SELEC");
        assertClean(syntax);

        StorageException invalid = (StorageException) catchThrowable(() -> storage.cql().run("running CQL",
                "SELECT nosuch FROM system.local"));
        assertThat(invalid.reason()).isEqualTo(ErrorReason.VALIDATION);
        assertThat(invalid.getMessage()).startsWith("running CQL: INVALID: ").contains("nosuch");
        assertClean(invalid);

        StorageException unconfigured = (StorageException) catchThrowable(() -> storage.cql().run("running CQL",
                "SELECT * FROM system.no_such_table"));
        assertThat(unconfigured.reason()).isEqualTo(ErrorReason.VALIDATION);
        assertThat(DriverFailures.isMissingTable(unconfigured)).as("recognised as a dropped table: %s", unconfigured).isTrue();
        assertThat(DriverFailures.isMissingTable(invalid)).isFalse();
    }

    @Test
    void aNodeThatDoesNotAnswerInTimeIsTransient() throws Exception {
        CassandraNode.Started node = CassandraNode.shared().started().orElse(null);
        Assumptions.assumeTrue(node != null, "pausing the node needs the node this JVM started");
        CassandraStorage quick = CassandraStorage.open(TestCassandra.config().withRequestTimeout(Duration.ofMillis(700)));
        try {
            String account = TestCassandra.account();
            TestCassandra.signal(node.pid(), "STOP");   // the node stops answering, as an overloaded or partitioned one would
            Throwable thrown;
            try {
                thrown = catchThrowable(() -> quick.tables().describeTable(account, "paused-table"));
            } finally {
                TestCassandra.signal(node.pid(), "CONT");
            }
            assertThat(thrown).isInstanceOf(StorageException.class);
            StorageException timeout = (StorageException) thrown;
            assertThat(timeout.reason()).as("%s", timeout).isEqualTo(ErrorReason.TRANSIENT);
            assertThat(timeout.getMessage()).contains("client request timeout").contains("paused-table");
            assertClean(timeout);
            // Once the node answers again, so does the engine.
            Throwable after = catchThrowable(() -> quick.tables().describeTable(account, "paused-table"));
            assertThat(((StorageException) after).reason()).isEqualTo(ErrorReason.TABLE_NOT_FOUND);
        } finally {
            TestCassandra.dropAndClose(quick);
        }
    }

    @Test
    void anUnreachableClusterIsTransientAtOpen() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        CassandraConfig config = CassandraConfig.of("127.0.0.1", closedPort).withRequestTimeout(Duration.ofSeconds(2));
        Throwable thrown = catchThrowable(() -> CassandraStorage.open(config).close());
        assertThat(thrown).isInstanceOf(StorageException.class);
        StorageException e = (StorageException) thrown;
        assertThat(e.reason()).isEqualTo(ErrorReason.TRANSIENT);
        assertThat(e.getMessage()).startsWith("connecting to Cassandra at 127.0.0.1:" + closedPort + ": no node available: ");
        assertThat(e.getMessage()).doesNotContain("\n");
    }
}
