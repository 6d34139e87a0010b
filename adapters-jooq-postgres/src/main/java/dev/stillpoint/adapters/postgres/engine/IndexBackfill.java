package dev.stillpoint.adapters.postgres.engine;

import dev.stillpoint.adapters.postgres.storage.RelationLayout;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.request.ItemRules;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.itemjson.ItemJson;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.conf.ParamType;
import org.jooq.impl.DSL;

/** UpdateTable's backfill of a new GSI, inside the unit of work that adds it (see {@link PostgresTables}). */
final class IndexBackfill {

    private static final int BACKFILL_FETCH = 1000;
    private static final String BACKFILL_CURSOR = "sp_backfill";

    private IndexBackfill() {
    }

    /** Copies every base item that has the index's key attributes into the index relation, through a cursor. */
    static void run(Connection data, CatalogRows.Loaded loaded, RelationLayout index, TableDescription table,
                                 String indexName) throws SQLException {
        RelationLayout base = loaded.base();
        String select = DSL.using(SQLDialect.POSTGRES).select(base.item()).from(base.relation().table())
                .getSQL(ParamType.INLINED);
        DSLContext ctx = Work.dsl(data);
        try (Statement s = data.createStatement()) {
            s.execute("DECLARE " + BACKFILL_CURSOR + " NO SCROLL CURSOR FOR " + select);
            while (true) {
                int rows = 0;
                try (ResultSet rs = s.executeQuery("FETCH FORWARD " + BACKFILL_FETCH + " FROM " + BACKFILL_CURSOR)) {
                    while (rs.next()) {
                        rows++;
                        String json = rs.getString(1);
                        Item item = ItemJson.decode(json);
                        Optional<Key> entry = ItemRules.entryKeyOfStoredItem(table, indexName, item);
                        if (entry.isPresent()) {
                            index.insertEntry(ctx, ItemKeys.of(entry.get()).values(),
                                    ItemKeys.of(Key.of(item, loaded.keySchema())).values(), json).execute();
                        }
                    }
                }
                if (rows < BACKFILL_FETCH) {
                    break;
                }
            }
            s.execute("CLOSE " + BACKFILL_CURSOR);
        }
    }
}
