package dev.stillpoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/**
 * Unsupported is exit 9 on every command, as the README's exit table and each command's help say: a script
 * tells "the backend does not do that" from a failure. Found from outside (a database set read-only by its
 * operator, then {@code put}): the write was refused Unsupported, exit 1, and MongoDB's and Cassandra's
 * refusal of {@code --change-log}, documented as exit 9, went the same way.
 */
class UnsupportedExitCodeTest {

    @Test
    void aWriteToADatabaseItsOperatorSetReadOnlyIsExitNineNamingWhy() throws Exception {
        String url = CliPg.newDatabase("readonly", "pw");
        assertThat(Cli.run("create-table", "--postgres", url, "--table", "things", "--key", "pk:S").code()).isZero();
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("ALTER DATABASE " + c.getCatalog() + " SET default_transaction_read_only = on");
        }
        Cli.Run put = Cli.run("put", "--postgres", url, "--table", "things", "--item", "{\"pk\":{\"S\":\"a\"}}");
        assertThat(put.code()).as(put.err()).isEqualTo(ExitCodes.UNSUPPORTED).isEqualTo(9);
        assertThat(put.err()).contains("read_only_sql_transaction").contains("UnsupportedOperationException");
        Cli.Run get = Cli.run("get-item", "--postgres", url, "--table", "things", "--key-json", "{\"pk\":{\"S\":\"a\"}}");
        assertThat(get.code()).as("nothing was written: " + get.err()).isEqualTo(ExitCodes.ITEM_NOT_FOUND);
    }
}
