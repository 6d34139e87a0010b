package dev.stillpoint.adapters.postgres.engine;


import dev.stillpoint.adapters.postgres.storage.RelationLayout;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.ports.out.BackfillEntry;
import dev.stillpoint.ports.out.BaseItem;
import dev.stillpoint.ports.out.CatalogStamp;
import dev.stillpoint.ports.out.IndexBuild;
import dev.stillpoint.ports.out.ItemScan;
import dev.stillpoint.ports.out.StorageTable;
import dev.stillpoint.sqlcatalog.IndexRow;
import dev.stillpoint.sqlcatalog.RowLock;
import dev.stillpoint.sqlcatalog.TableInserts;
import dev.stillpoint.sqlcatalog.TableRows;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.conf.ParamType;
import org.jooq.impl.DSL;

/**
 * The steps of adding a GSI on PostgreSQL, all in one {@link Transaction} (the core runs them,
 * {@link PostgresTables#inIndexBuild} opens it): the catalog row FOR UPDATE, so no item write (FOR KEY
 * SHARE) or other change commits in between; the index relation, its entries (read from the base
 * relation through one server cursor) and its ACTIVE row commit together, the data first on the
 * separate layout, so the index is complete when its row becomes visible.
 */
final class PgIndexBuild implements IndexBuild {

    private static final String CURSOR = "sp_backfill";

    private final Transaction work;
    private final String doing;

    PgIndexBuild(Transaction work, String doing) {
        this.work = work;
        this.doing = doing;
    }

    /** The table with its new index's relation, as recorded in this unit. */
    private record Recorded(CatalogRows.Loaded loaded, RelationLayout index, TableDescription description)
            implements StorageTable {

        @Override
        public Optional<CatalogStamp> stamp() {
            return loaded.stamp();
        }
    }

    /** A base row: its stored text and the item decoded from it. */
    private record Row(String json, Item item) implements BaseItem {
    }

    @Override
    public boolean atomic() {
        return true;
    }

    @Override
    public Optional<StorageTable> load(String accountId, String tableName) {
        return CatalogRows.load(work.catalog(), accountId, tableName, RowLock.UPDATE)
                .map(StorageTable.class::cast);
    }

    @Override
    public Optional<StorageTable> record(StorageTable table, TableDescription after, String indexName) {
        CatalogRows.Loaded loaded = (CatalogRows.Loaded) table;
        try {
            IndexRow index = TableInserts.recordGlobalIndex(work.catalog(), after, indexName, loaded.row().nextOrdinal(),
                    CatalogRows.relations(work.data()));
            return Optional.of(new Recorded(loaded, loaded.index(index), after));
        } catch (SQLException e) {
            throw PgFailures.map(doing, e);
        }
    }

    /** One NO SCROLL cursor over the base relation in the data transaction, fetched a page at a time. */
    @Override
    public ItemScan scan(StorageTable table) {
        RelationLayout base = ((Recorded) table).loaded().base();
        String select = DSL.using(SQLDialect.POSTGRES).select(base.item()).from(base.relation().table())
                .getSQL(ParamType.INLINED);
        Statement statement;
        try {
            statement = work.dataConnection().createStatement();
            statement.execute("DECLARE " + CURSOR + " NO SCROLL CURSOR FOR " + select);
        } catch (SQLException e) {
            throw PgFailures.map(doing, e);
        }
        return new ItemScan() {
            @Override
            public List<BaseItem> next(int max) {
                List<BaseItem> page = new ArrayList<>(max);
                try (ResultSet rs = statement.executeQuery("FETCH FORWARD " + max + " FROM " + CURSOR)) {
                    while (rs.next()) {
                        String json = rs.getString(1);
                        page.add(new Row(json, ItemJson.decode(json)));
                    }
                } catch (SQLException e) {
                    throw PgFailures.map(doing, e);
                }
                return page;
            }

            @Override
            public void close() {
                // The cursor ends with the transaction at the latest; closing it frees it sooner.
                try (statement) {
                    statement.execute("CLOSE " + CURSOR);
                } catch (SQLException e) {
                    throw PgFailures.map(doing, e);
                }
            }
        };
    }

    @Override
    public void write(StorageTable table, String indexName, List<BackfillEntry> entries) {
        Recorded recorded = (Recorded) table;
        try {
            DSLContext data = work.data();
            for (BackfillEntry entry : entries) {
                Row row = (Row) entry.item();
                recorded.index().insertEntry(data, ItemKeys.of(entry.indexKey()).values(),
                        ItemKeys.of(Key.of(row.item(), recorded.loaded().row().keySchema())).values(), row.json()).execute();
            }
        } catch (SQLException e) {
            throw PgFailures.map(doing, e);
        }
    }

    @Override
    public void activate(StorageTable table, String indexName) {
        TableRows.activateIndex(work.catalog(), table.description().tableId(), indexName);
    }
}
