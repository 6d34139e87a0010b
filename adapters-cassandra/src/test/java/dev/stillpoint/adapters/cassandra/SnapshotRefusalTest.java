package dev.stillpoint.adapters.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.request.RequestKey;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * [C1] (and the kit's K6 in the form that applies): Cassandra refuses every snapshot with
 * Unsupported, naming Cassandra and why, before it resolves the table, so an existing table, a
 * missing one and one of an invalid name all get the same answer, even from a closed engine.
 */
class SnapshotRefusalTest extends OnSharedNode {

    static final String ACCOUNT = TestCassandra.account();
    static final String TABLE = TestCassandra.tableName("snap");

    @BeforeAll
    static void setUp() {
        storage.tables().createTable(TestCassandra.hashOnly(ACCOUNT, TABLE, ScalarType.S));
        storage.tables().putItem(ACCOUNT, TABLE, TestCassandra.item("pk", AttributeValue.s("one")));
    }

    private static void assertRefused(Throwable thrown, String what) {
        assertThat(thrown).as("[C1] a snapshot of %s is refused with a StorageException", what)
                .isInstanceOf(StorageException.class);
        StorageException e = (StorageException) thrown;
        assertThat(e.reason()).as("[C1] a snapshot of %s is Unsupported: %s", what, e).isEqualTo(ErrorReason.UNSUPPORTED);
        assertThat(e.getMessage()).as("[C1] the refusal names the backend").contains("Cassandra");
        assertThat(e.getMessage()).as("[C1] the refusal says why: no read fixes an instant")
                .contains("no read fixes an instant")
                .contains("token range")
                .contains("lightweight transaction");
        assertThat(e.getMessage()).as("no stack dump in the message").doesNotContain("\tat ").doesNotContain("\n");
    }

    @Test
    void c1_existingTableIsRefusedAsUnsupported() {
        assertThat(storage.tables().describeTable(ACCOUNT, TABLE).tableName()).isEqualTo(TABLE);
        assertRefused(catchThrowable(() -> storage.snapshots().openTableSnapshot(ACCOUNT, TABLE)), "an existing table");
    }

    @Test
    void c1_missingTableIsRefusedAsUnsupportedNotTableNotFound() {
        String missing = TestCassandra.tableName("missing");
        assertRefused(catchThrowable(() -> storage.snapshots().openTableSnapshot(ACCOUNT, missing)), "a missing table");
        assertRefused(catchThrowable(() -> storage.snapshots().openTableSnapshot("no-such-account", missing)),
                "a table of an account that has nothing");
    }

    @Test
    void c1_refusalComesBeforeTheTableIsResolved() throws Exception {
        // An invalid name would be a Validation error if the engine looked at the table at all.
        assertRefused(catchThrowable(() -> storage.snapshots().openTableSnapshot(ACCOUNT, "x")), "an invalid name");
        // A closed engine cannot read anything: the answer is still the refusal.
        CassandraStorage closed = TestCassandra.open();
        TestCassandra.dropAndClose(closed);
        assertRefused(catchThrowable(() -> closed.snapshots().openTableSnapshot(ACCOUNT, TABLE)), "a table, on a closed engine");
        // And the engine holds nothing it could read with.
        Field[] heldFields = Arrays.stream(storage.snapshots().getClass().getDeclaredFields())
                .filter(f -> !Modifier.isStatic(f.getModifiers())).filter(f -> f.getType() != String.class)
                .toArray(Field[]::new);
        assertThat(heldFields).as("the snapshot engine holds no session, catalog or table, only its refusal's words")
                .isEmpty();
    }

    @Test
    void c1_repeatedRefusalsStayRefusalsAndTheTableStaysUsable() {
        for (int i = 0; i < 50; i++) {
            assertRefused(catchThrowable(() -> storage.snapshots().openTableSnapshot(ACCOUNT, TABLE)), "an existing table, again");
        }
        assertThat(storage.tables().getItem(ACCOUNT, TABLE, RequestKey.of("pk", AttributeValue.s("one"))))
                .isPresent();
    }
}
