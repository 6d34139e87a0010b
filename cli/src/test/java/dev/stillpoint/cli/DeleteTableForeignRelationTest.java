package dev.stillpoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A catalog edited by hand to name another application's table as an index relation [L2]: found from outside
 * (sqlite3 set {@code sp_indexes.relation_name} to {@code users}, then {@code delete-table --wait}). The drop
 * refused the name and left {@code users} as it was, but the command said "a reader still holds it" where no
 * reader was: the drop had failed. Now it says the drop did not complete and why it can be, and puts refuse
 * the name.
 */
class DeleteTableForeignRelationTest {

    @Test
    void aCatalogNamingAForeignTableNeverDropsItAndTheWaitDoesNotBlameAReader(@TempDir Path dir) throws Exception {
        Path db = dir.resolve("db.sqlite");
        String file = db.toString();
        assertThat(Cli.run("create-table", "--sqlite", file, "--table", "orders", "--key", "pk:S",
                "--gsi", "by_g:g:S").code()).isZero();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)");
            s.execute("INSERT INTO users VALUES (1, 'alice')");
            // The count includes what the catalog's version trigger changed, so the edit is checked by reading it back.
            s.executeUpdate("UPDATE sp_indexes SET relation_name = 'users' WHERE index_name = 'by_g'");
            try (ResultSet rs = s.executeQuery("SELECT relation_name FROM sp_indexes WHERE index_name = 'by_g'")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("users");
            }
        }
        Cli.Run put = Cli.run("put", "--sqlite", file, "--table", "orders", "--item",
                "{\"pk\":{\"S\":\"a\"},\"g\":{\"S\":\"x\"}}");
        // Soft: a drop that took the foreign table is reported even when the put's answer is wrong too.
        SoftAssertions soft = new SoftAssertions();
        soft.assertThat(put.code()).as(put.err()).isEqualTo(ExitCodes.STORAGE_ERROR);
        soft.assertThat(put.err()).as("[R6] the refused name").contains("not a data relation name: users");

        Cli.Run waited = Cli.run("delete-table", "--sqlite", file, "--table", "orders", "--wait", "1");
        soft.assertThat(waited.code()).as(waited.err()).isEqualTo(ExitCodes.STORAGE_ERROR);
        soft.assertThat(waited.err()).contains("table 'orders' is still DELETING after 1 s: its drop did not complete")
                .doesNotContain("a reader still holds it");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT name FROM users WHERE id = 1")) {
            soft.assertThat(rs.next()).as("[L2] the foreign table and its row are still there").isTrue();
            soft.assertThat(rs.getString(1)).isEqualTo("alice");
        } catch (SQLException e) {
            soft.fail("[L2] the foreign table is gone: " + e.getMessage());
        }
        soft.assertThat(Cli.run("describe", "--sqlite", file, "--table", "orders").out())
                .as("the row stays, DELETING, for the retries").contains("\"TableStatus\" : \"DELETING\"");
        soft.assertAll();
    }
}
