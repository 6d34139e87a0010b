package dev.stillpoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * [E1] on PostgreSQL, found from outside: psql changed a row's item text to name another sort key
 * ({@code "sk":{"N":"11"}} in the row keyed {@code sk = 10}), and the export wrote it with exit 0, where
 * SQLite's refuses such a row. An export now reads each row's key columns with its item and refuses a
 * row whose JSON names another key, in both layouts and in every segment of {@code -j N}, naming the
 * item and the key its row is stored under, and writes no manifest.
 */
class PostgresExportKeyCheckTest {

    @Test
    void e1_aRowWhoseItemNamesAnotherKeyIsRefusedInTheSharedLayout() throws Exception {
        String url = CliPg.newDatabase("keycheck", "pw");
        ExportBackendsTest.load("--postgres", url);
        renameSortKey(url, url);

        refused("shared", "--postgres", url);
    }

    @Test
    void e1_aRowWhoseItemNamesAnotherKeyIsRefusedInTheSeparateLayout() throws Exception {
        String catalog = CliPg.newDatabase("keycheck_catalog", "pw");
        String data = CliPg.newDatabase("keycheck_data", "pw");
        ExportBackendsTest.load("--postgres", catalog, "--data-url", data);
        renameSortKey(catalog, data);

        refused("separate", "--postgres", catalog, "--data-url", data);
    }

    /** In the row of (pk 'b', sk 10), the item text's sort key becomes 11: what a hand edit can do. */
    private static void renameSortKey(String catalogUrl, String dataUrl) throws Exception {
        String relation;
        try (Connection c = DriverManager.getConnection(catalogUrl); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT relation_name FROM sp_tables WHERE table_name = 'things'")) {
            assertThat(rs.next()).isTrue();
            relation = rs.getString(1);
        }
        assertThat(relation).matches("d_[a-z0-9]+");
        try (Connection c = DriverManager.getConnection(dataUrl); PreparedStatement s = c.prepareStatement(
                "UPDATE \"" + relation + "\" SET item = replace(item, ?, ?) WHERE pk = 'b' AND sk = 10")) {
            s.setString(1, "\"sk\":{\"N\":\"10\"}");
            s.setString(2, "\"sk\":{\"N\":\"11\"}");
            assertThat(s.executeUpdate()).isEqualTo(1);
        }
    }

    private static void refused(String label, String... backend) throws Exception {
        for (String jobs : List.of("1", "2")) {
            Path out = Cli.scratch("pg-keycheck-" + label + "-" + jobs).resolve("out");
            Cli.Run run = Cli.run(ExportBackendsTest.concat(List.of("export"), backend, "--table", "things",
                    "--out", out.toString(), "-j", jobs));

            assertThat(run.code()).as("-j %s: %s", jobs, run.err()).isEqualTo(ExitCodes.CORRUPT_ITEM);
            assertThat(run.err()).as("-j " + jobs)
                    .contains("stored key pk=S 'b' sk=N '10')")
                    .contains("its key attributes (S 'b', N '11') are not the key its row is stored under");
            assertThat(Files.exists(out.resolve("manifest.json"))).as("-j %s: no manifest", jobs).isFalse();
        }
    }
}
