package dev.stillpoint.sqlcatalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;

class MigrationScriptTest {

    @Test
    void script_names_carry_their_version() {
        assertThat(MigrationScript.of("/x/V12__add_things.sql").version()).isEqualTo(12);
        assertThatThrownBy(() -> MigrationScript.of("/x/V0__zero.sql")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MigrationScript.of("/x/catalog.sql")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void a_runner_needs_version_one_and_no_version_twice() {
        assertThatThrownBy(() -> new MigrationRunner(List.of(MigrationScript.of("/a/V1__a.sql"),
                MigrationScript.of("/b/V1__b.sql")), Clock.systemUTC(), null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("two migration scripts");
        assertThatThrownBy(() -> new MigrationRunner(List.of(MigrationScript.of("/a/V2__a.sql")), Clock.systemUTC(), null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("start with version 1");
    }
}
