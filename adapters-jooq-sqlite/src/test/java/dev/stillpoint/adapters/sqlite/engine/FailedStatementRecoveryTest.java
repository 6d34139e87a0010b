package dev.stillpoint.adapters.sqlite.engine;

import static dev.stillpoint.adapters.sqlite.engine.SqliteStorageTest.ACCOUNT;
import static dev.stillpoint.adapters.sqlite.engine.SqliteStorageTest.item;
import static dev.stillpoint.adapters.sqlite.engine.SqliteStorageTest.orders;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.adapters.sqlite.SqliteConfig;
import dev.stillpoint.adapters.sqlite.SqliteStorage;
import dev.stillpoint.adapters.sqlite.testing.TestDatabases;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.request.RequestKey;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A write the database refuses mid-statement leaves the writer able to write. Found from outside: on a full disk
 * (a 3 MB tmpfs), the first put failed SQLITE_FULL and every later one "statement is not executing", also after
 * the disk had room again, until the process restarted: sqlite-jdbc finalizes a statement whose step failed with
 * any code but BUSY, LOCKED, CONSTRAINT or MISUSE while its {@code isClosed()} stays false, and the writer kept
 * it. Here the failure is SQLITE_ERROR from another application's trigger on the file (an integer overflow in
 * {@code abs}), which fails the kept upsert as SQLITE_FULL did; a RAISE would be CONSTRAINT, which leaves the
 * statement usable.
 */
class FailedStatementRecoveryTest {

    @Test
    void aStatementTheDatabaseRefusedIsPreparedAgainForTheNextWrite() throws Exception {
        Path file = TestDatabases.newFile("failed-statement");
        try (SqliteStorage storage = SqliteStorage.open(SqliteConfig.file(file).withControlPlaneDelay(Duration.ZERO))) {
            storage.tables().createTable(orders("orders"));
            SqliteStorageTest.awaitActive(storage, "orders");
            storage.tables().putItem(ACCOUNT, "orders", item("a", "1", "kept statements prepared"));
            try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
                String relation;
                try (ResultSet rs = s.executeQuery("SELECT relation_name FROM sp_tables WHERE table_name = 'orders'")) {
                    rs.next();
                    relation = rs.getString(1);
                }
                s.execute("CREATE TRIGGER refuse_boom BEFORE INSERT ON \"" + relation + "\" WHEN NEW.item LIKE '%boom%'"
                        + " BEGIN SELECT abs(-9223372036854775808); END");
            }
            assertThatThrownBy(() -> storage.tables().putItem(ACCOUNT, "orders", item("b", "2", "boom")))
                    .isInstanceOf(StorageException.class).hasMessageContaining("integer overflow");
            for (int i = 3; i <= 5; i++) {
                storage.tables().putItem(ACCOUNT, "orders", item("c", Integer.toString(i), "after the refusal"));
            }
            assertThat(storage.tables().getItem(ACCOUNT, "orders",
                    RequestKey.of("pk", new AttributeValue.S("c"), "sk", AttributeValue.N.of("5"))))
                    .as("the writes after the refusal").contains(item("c", "5", "after the refusal"));
            assertThat(storage.tables().getItem(ACCOUNT, "orders",
                    RequestKey.of("pk", new AttributeValue.S("b"), "sk", AttributeValue.N.of("2")))).isEmpty();
        }
    }
}
