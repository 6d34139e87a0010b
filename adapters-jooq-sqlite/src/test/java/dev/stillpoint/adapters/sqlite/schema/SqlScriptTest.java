package dev.stillpoint.adapters.sqlite.schema;

import dev.stillpoint.sqlcatalog.SqlScript;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SqlScriptTest {

    @Test
    void splits_at_semicolons_outside_literals_identifiers_and_comments() {
        String script = """
                -- leading comment; not a statement
                CREATE TABLE "a;b" (x TEXT DEFAULT 'it''s; fine');
                /* block; comment */
                INSERT INTO [c;d] VALUES ('x'), (`y;z`);
                -- trailing comment only
                """;
        assertThat(sqlite(script)).containsExactly(
                "-- leading comment; not a statement\nCREATE TABLE \"a;b\" (x TEXT DEFAULT 'it''s; fine')",
                "/* block; comment */\nINSERT INTO [c;d] VALUES ('x'), (`y;z`)");
    }

    @Test
    void keeps_jooq_ignore_regions_for_sqlite_to_execute() {
        String script = """
                CREATE TABLE t (
                  a TEXT NOT NULL
                  -- [jooq ignore start]
                  , PRIMARY KEY (a)
                  -- [jooq ignore stop]
                );
                """;
        assertThat(sqlite(script)).singleElement().asString()
                .contains("PRIMARY KEY (a)").contains("[jooq ignore start]");
    }

    @Test
    void a_trigger_runs_to_the_end_of_its_body() {
        assertThat(sqlite("CREATE TRIGGER t AFTER INSERT ON x BEGIN UPDATE y SET v = v + 1; "
                + "DELETE FROM z; END; SELECT 2;"))
                .containsExactly("CREATE TRIGGER t AFTER INSERT ON x BEGIN UPDATE y SET v = v + 1; DELETE FROM z; END",
                        "SELECT 2");
    }

    @Test
    void refuses_what_it_cannot_split() {
        assertThatThrownBy(() -> sqlite("CREATE TRIGGER t AFTER INSERT ON x BEGIN SELECT 1;"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("TRIGGER");
        assertThatThrownBy(() -> sqlite("SELECT 'open"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> sqlite("SELECT 1 /* open"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void the_bundled_catalog_script_has_its_statements() {
        assertThat(sqlite(load(Migrations.LOCATION + "V1__catalog.sql")))
                .hasSize(8)
                .allSatisfy(s -> assertThat(s).doesNotEndWith(";"));
    }

    static String load(String resource) {
        try (var in = SqlScriptTest.class.getResourceAsStream(resource)) {
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static java.util.List<String> sqlite(String script) {
        return SqlScript.statements(script, SqlScript.Lexis.SQLITE);
    }

    // PostgreSQL's lexis: a dollar-quoted body keeps its semicolons; SQLite's trigger rule does not apply.
    @Test
    void postgresKeepsDollarQuotedBodiesWholeAndHasNoTriggerRule() {
        String script = "CREATE FUNCTION f() RETURNS trigger AS $body$ BEGIN NEW.v := 1; RETURN NEW; END $body$ LANGUAGE plpgsql;\n"
                + "CREATE TRIGGER t BEFORE UPDATE ON x FOR EACH ROW EXECUTE FUNCTION f();\nSELECT $$a;b$$, 'c;d'";
        assertThat(SqlScript.statements(script, SqlScript.Lexis.POSTGRES)).containsExactly(
                "CREATE FUNCTION f() RETURNS trigger AS $body$ BEGIN NEW.v := 1; RETURN NEW; END $body$ LANGUAGE plpgsql",
                "CREATE TRIGGER t BEFORE UPDATE ON x FOR EACH ROW EXECUTE FUNCTION f()",
                "SELECT $$a;b$$, 'c;d'");
        assertThat(SqlScript.statements("SELECT a[1]; SELECT 2", SqlScript.Lexis.POSTGRES))
                .as("a bracket is no quote in PostgreSQL").containsExactly("SELECT a[1]", "SELECT 2");
        assertThatThrownBy(() -> SqlScript.statements("SELECT $x$ open", SqlScript.Lexis.POSTGRES))
                .hasMessageContaining("unterminated dollar quote $x$ at offset 7");
    }
}
