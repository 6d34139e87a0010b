package dev.stillpoint.adapters.sqlite.storage;

import dev.stillpoint.sqlcatalog.TableId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.sqlcatalog.SqlScript;
import dev.stillpoint.adapters.sqlite.testing.TestDatabases;
import dev.stillpoint.sqlcatalog.RelationName;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

class DataRelationTest {

    private static final TableId ID = new TableId("0f3a9c");

    private static DataRelation base(TableId id) {
        return DataRelation.of(RelationName.base(id.value()));
    }

    private static DataRelation globalIndex(TableId id, int ordinal) {
        return DataRelation.of(RelationName.index(id.value(), RelationName.Kind.GSI, ordinal));
    }

    private static DataRelation localIndex(TableId id, int ordinal) {
        return DataRelation.of(RelationName.index(id.value(), RelationName.Kind.LSI, ordinal));
    }

    @Test
    void names_derive_from_the_table_id_and_ordinal_only() {
        assertThat(base(ID).name()).isEqualTo("d_0f3a9c");
        assertThat(globalIndex(ID, 3).name()).isEqualTo("d_0f3a9c__gsi__3");
        assertThat(localIndex(ID, 0).name()).isEqualTo("d_0f3a9c__lsi__0");
        assertThat(DataRelation.fromCatalog("d_0f3a9c__gsi__3")).isEqualTo(globalIndex(ID, 3))
                .extracting(DataRelation::kind).isEqualTo(RelationName.Kind.GSI);
        assertThat(DataRelation.fromCatalog("d_0f3a9c").kind()).isEqualTo(RelationName.Kind.BASE);
        assertThat(TableId.random().value()).matches("[0-9a-f]{32}");
    }

    @Test
    void anything_else_is_refused_as_a_name() {
        for (String bad : new String[] {"Music", "d_", "d_ABC", "d_abc; drop table x", "d_abc\"", "d_abc__gsi__",
                "d_abc__gsi__01", "d_abc__vec__1", "sp_tables", ""}) {
            assertThatThrownBy(() -> DataRelation.fromCatalog(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
        assertThatThrownBy(() -> DataRelation.fromCatalog(null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TableId("My-Table")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> globalIndex(ID, -1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void queries_name_the_relation_and_unqualified_template_columns() {
        DataRelation base = base(ID);
        DSLContext ctx = DSL.using(SQLDialect.SQLITE);
        String sql = ctx.render(ctx.select(base.pk(), base.sk(), base.item()).from(base.table())
                .where(base.pk().eq(new byte[] {1})).orderBy(base.pk(), base.sk()));
        // jOOQ's SQLite dialect leaves plain lower-case identifiers unquoted; the names are safe either way
        assertThat(sql.replace("\"", "")).isEqualTo(
                "select pk, sk, item from d_0f3a9c where pk = ? order by pk, sk");
        assertThat(sql).doesNotContain("template");
    }

    @Test
    void created_relations_have_the_template_shape_and_a_rowid() throws SQLException {
        try (Connection c = TestDatabases.inMemory()) {
            DSLContext ctx = DSL.using(c, SQLDialect.SQLITE);
            for (String statement : templateStatements()) {
                ctx.execute(statement);
            }
            DataRelation base = base(ID);
            DataRelation gsi = globalIndex(ID, 0);
            DataRelation lsi = localIndex(ID, 1);
            for (DataRelation relation : List.of(base, gsi, lsi)) {
                relation.create(ctx).execute();
            }

            assertThat(shape(ctx, base.name())).isEqualTo(shape(ctx, "sp_data_template"));
            assertThat(shape(ctx, gsi.name())).isEqualTo(shape(ctx, "sp_index_data_template"));
            assertThat(shape(ctx, lsi.name())).isEqualTo(shape(ctx, "sp_index_data_template"));
            assertThat(ctx.fetchValue("select sql from sqlite_master where name = ?", base.name()).toString())
                    .doesNotContainIgnoringCase("without rowid");

            ctx.insertInto(base.table(), base.pk(), base.sk(), base.item())
                    .values(KeyCodec.encodeString("a"), KeyCodec.absentSortKey(), "{}").execute();
            assertThat(ctx.fetchValue("select rowid from \"" + base.name() + "\"")).isNotNull();
            assertThatThrownBy(() -> ctx.insertInto(base.table(), base.pk(), base.sk(), base.item())
                    .values(KeyCodec.encodeString("a"), KeyCodec.absentSortKey(), "{\"again\":{}}").execute())
                    .hasMessageContaining("UNIQUE");
            assertThatThrownBy(() -> ctx.insertInto(base.table(), base.pk(), base.sk(), base.item())
                    .values(KeyCodec.encodeString("b"), null, "{}").execute())
                    .hasMessageContaining("NOT NULL");

            base.dropIfExists(ctx).execute();
            base.dropIfExists(ctx).execute();
            assertThat(ctx.fetchValue("select count(*) from sqlite_master where name = ?", base.name()))
                    .isEqualTo(0);
        }
    }

    @Test
    void sqlite_orders_encoded_numbers_by_value() throws SQLException {
        List<BigDecimal> values = new ArrayList<>();
        Random random = new Random(7);
        for (String text : List.of("0", "1E-130", "-1E-130", "9.9E125", "-9.9E125", "150", "1.5E2", "-1.5", "2",
                "10", "-10", "12345678901234567890123456789012345678", "12345678901234567890123456789012345679",
                "-12345678901234567890123456789012345678", "-12345678901234567890123456789012345679")) {
            values.add(new BigDecimal(text));
        }
        for (int i = 0; i < 300; i++) {
            BigDecimal v = new BigDecimal(new java.math.BigInteger(1 + random.nextInt(126), random),
                    random.nextInt(200) - 60);
            values.add(random.nextBoolean() ? v : v.negate());
        }
        values.removeIf(v -> {
            try {
                KeyCodec.encodeNumber(v);
                return false;
            } catch (IllegalArgumentException outOfRange) {
                return true;
            }
        });
        Collections.shuffle(values, random);

        try (Connection c = TestDatabases.inMemory()) {
            DSLContext ctx = DSL.using(c, SQLDialect.SQLITE);
            DataRelation base = base(ID);
            base.create(ctx).execute();
            for (BigDecimal v : values) {
                ctx.insertInto(base.table(), base.pk(), base.sk(), base.item())
                        .values(KeyCodec.encodeString("p"), KeyCodec.encodeNumber(v), "{}")
                        .onConflictDoNothing()
                        .execute();
            }
            List<BigDecimal> stored = ctx.select(base.sk()).from(base.table()).orderBy(base.sk())
                    .fetch(base.sk()).stream().map(KeyCodecReader::decodeNumber).toList();

            List<BigDecimal> expected = values.stream().map(BigDecimal::stripTrailingZeros).distinct().sorted().toList();
            assertThat(stored).containsExactlyElementsOf(expected);
            assertThat(stored).hasSizeGreaterThan(100);
        }
    }

    private static List<String> shape(DSLContext ctx, String relation) {
        List<String> columns = new ArrayList<>();
        for (Record r : ctx.fetch("select name, type, \"notnull\", pk from pragma_table_info(?) order by cid", relation)) {
            columns.add(r.get(0) + " " + affinity(r.get(1, String.class)) + " notnull=" + r.get(2) + " pk=" + r.get(3));
        }
        return columns;
    }

    /** SQLite's column affinity rules (https://sqlite.org/datatype3.html, 3.1). */
    private static String affinity(String declared) {
        String t = declared.toUpperCase(java.util.Locale.ROOT);
        if (t.contains("INT")) {
            return "INTEGER";
        }
        if (t.contains("CHAR") || t.contains("CLOB") || t.contains("TEXT")) {
            return "TEXT";
        }
        if (t.isEmpty() || t.contains("BLOB")) {
            return "BLOB";
        }
        if (t.contains("REAL") || t.contains("FLOA") || t.contains("DOUB")) {
            return "REAL";
        }
        return "NUMERIC";
    }

    private static List<String> templateStatements() {
        try (InputStream in = DataRelationTest.class.getResourceAsStream(
                "/dev/stillpoint/adapters/sqlite/templates/data_relation.sql")) {
            return SqlScript.statements(new String(in.readAllBytes(), StandardCharsets.UTF_8), SqlScript.Lexis.SQLITE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
