package dev.stillpoint.adapters.sqlite.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.adapters.sqlite.storage.DataRelation;
import dev.stillpoint.adapters.sqlite.storage.KeyCodec;
import dev.stillpoint.adapters.sqlite.testing.TestDatabases;
import dev.stillpoint.sqlcatalog.RelationName;
import dev.stillpoint.sqlcatalog.TableId;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.jooq.Query;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

/**
 * The writer's kept statements (issue 13) on a real SQLite file: they never hold a lock that blocks a
 * DROP of their relation, they are bounded, a relation whose statements were closed is prepared again on
 * its next write, and a relation name the catalog could not have produced never reaches SQL [R1].
 */
class WriteStatementsTest {

    private static final ItemKeys KEY_A = new ItemKeys(KeyCodec.encodeString("a"), KeyCodec.absentSortKey());
    private static final ItemKeys KEY_B = new ItemKeys(KeyCodec.encodeString("b"), KeyCodec.absentSortKey());

    @Test
    void aRelationWrittenThroughKeptStatementsCanBeDroppedOnTheSameConnection() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + TestDatabases.newFile("kept-drop"))) {
            DataRelation base = relation(c);
            WriteStatements kept = new WriteStatements(c, WriteStatements.CAPACITY);
            kept.upsertItem(base.name(), KEY_A, "{\"pk\":{\"S\":\"a\"}}");
            kept.delete(base.name(), KEY_B);
            try (Statement s = c.createStatement()) {
                s.execute("DROP TABLE " + base.name());
            }
            assertThat(relationNames(c))
                    .as("a kept statement is reset after it runs, so the DROP of its relation succeeds [D5]")
                    .doesNotContain(base.name());
        }
    }

    @Test
    void beyondItsCapacityTheOldestRelationIsClosedAndPreparedAgainOnItsNextWrite() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + TestDatabases.newFile("kept-capacity"))) {
            List<DataRelation> relations = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                relations.add(relation(c));
            }
            WriteStatements kept = new WriteStatements(c, 2);
            for (DataRelation r : relations) {
                kept.upsertItem(r.name(), KEY_A, "{\"pk\":{\"S\":\"a\"}}");
            }
            assertThat(kept.relationsKept()).as("statements kept for at most the capacity's relations").isEqualTo(2);
            kept.upsertItem(relations.get(0).name(), KEY_B, "{\"pk\":{\"S\":\"b\"}}");
            kept.upsertItem(relations.get(0).name(), KEY_A, "{\"pk\":{\"S\":\"a\"},\"v\":{\"N\":\"2\"}}");
            assertThat(items(c, relations.get(0)))
                    .as("the evicted relation's statements are prepared again and write as before")
                    .containsExactly("{\"pk\":{\"S\":\"a\"},\"v\":{\"N\":\"2\"}}", "{\"pk\":{\"S\":\"b\"}}");
            assertThat(kept.relationsKept()).isEqualTo(2);
        }
    }

    @Test
    void r1_aRelationNameTheCatalogCouldNotHaveWrittenNeverReachesSql() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + TestDatabases.newFile("kept-name"))) {
            WriteStatements kept = new WriteStatements(c, WriteStatements.CAPACITY);
            assertThatThrownBy(() -> kept.upsertItem("d_x\"; DROP TABLE sp_tables; --", KEY_A, "{}"))
                    .as("[R1] the damaged name is refused before any statement is prepared")
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("not a data relation name");
            assertThat(kept.relationsKept()).isZero();
        }
    }

    private static DataRelation relation(Connection c) {
        DataRelation base = DataRelation.of(RelationName.base(TableId.random().value()));
        for (Query q : base.createAll(DSL.using(c, SQLDialect.SQLITE))) {
            q.execute();
        }
        return base;
    }

    private static List<String> relationNames(Connection c) throws Exception {
        List<String> names = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT name FROM sqlite_master")) {
            while (rs.next()) {
                names.add(rs.getString(1));
            }
        }
        return names;
    }

    private static List<String> items(Connection c, DataRelation r) throws Exception {
        List<String> items = new ArrayList<>();
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT item FROM " + r.name() + " ORDER BY pk")) {
            while (rs.next()) {
                items.add(rs.getString(1));
            }
        }
        return items;
    }
}
