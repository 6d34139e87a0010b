package dev.stillpoint.sqlcatalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class RelationNameTest {

    @Test
    void names_are_made_from_the_table_id_and_the_ordinal_only() {
        assertThat(RelationName.base("ab12").name()).isEqualTo("d_ab12");
        assertThat(RelationName.index("ab12", RelationName.Kind.GSI, 0).name()).isEqualTo("d_ab12__gsi__0");
        assertThat(RelationName.index("ab12", RelationName.Kind.LSI, 7).name()).isEqualTo("d_ab12__lsi__7");
        assertThat(RelationName.index("ab12", RelationName.Kind.VECTOR, 3).name()).isEqualTo("d_ab12__vec__3");
        assertThatThrownBy(() -> RelationName.index("ab12", RelationName.Kind.GSI, -1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RelationName.index("ab12", RelationName.Kind.BASE, 0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void a_catalog_name_is_read_back_with_its_kind_and_anything_else_is_refused() {
        assertThat(RelationName.fromCatalog("d_ab12__lsi__7", 32)).isEqualTo(new RelationName("d_ab12__lsi__7",
                RelationName.Kind.LSI));
        assertThat(RelationName.fromCatalog("d_ab12__vec__3", 32).kind()).isEqualTo(RelationName.Kind.VECTOR);
        assertThat(RelationName.fromCatalog("d_ab12", 32).kind()).isEqualTo(RelationName.Kind.BASE);
        for (String bad : new String[] {"users", "d_AB", "d_ab12__gsi__01", "d_ab12\"; drop table x", "d_ab12__xyz__1", ""}) {
            assertThatThrownBy(() -> RelationName.fromCatalog(bad, 32)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
        assertThatThrownBy(() -> RelationName.fromCatalog(null, 32)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RelationName.fromCatalog("d_" + "a".repeat(33), 32))
                .as("an id longer than the adapter's").isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void only_an_own_id_names_a_table() {
        Pattern hex32 = Pattern.compile("[0-9a-f]{32}");
        String id = "0123456789abcdef0123456789abcdef";
        assertThat(RelationName.tableIdOf("d_" + id + "__gsi__2", hex32)).contains(id);
        assertThat(RelationName.tableIdOf("d_users", hex32)).isEmpty();
        assertThat(RelationName.tableIdOf(null, hex32)).isEmpty();
    }
}
