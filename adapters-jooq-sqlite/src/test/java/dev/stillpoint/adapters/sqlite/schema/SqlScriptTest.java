package dev.stillpoint.adapters.sqlite.schema;

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
        assertThat(SqlScript.statements(script)).containsExactly(
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
        assertThat(SqlScript.statements(script)).singleElement().asString()
                .contains("PRIMARY KEY (a)").contains("[jooq ignore start]");
    }

    @Test
    void a_trigger_runs_to_the_end_of_its_body() {
        assertThat(SqlScript.statements("CREATE TRIGGER t AFTER INSERT ON x BEGIN UPDATE y SET v = v + 1; "
                + "DELETE FROM z; END; SELECT 2;"))
                .containsExactly("CREATE TRIGGER t AFTER INSERT ON x BEGIN UPDATE y SET v = v + 1; DELETE FROM z; END",
                        "SELECT 2");
    }

    @Test
    void refuses_what_it_cannot_split() {
        assertThatThrownBy(() -> SqlScript.statements("CREATE TRIGGER t AFTER INSERT ON x BEGIN SELECT 1;"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("TRIGGER");
        assertThatThrownBy(() -> SqlScript.statements("SELECT 'open"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SqlScript.statements("SELECT 1 /* open"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void the_bundled_catalog_script_has_its_statements() {
        assertThat(SqlScript.statements(load(Migrations.LOCATION + "V1__catalog.sql")))
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
}
