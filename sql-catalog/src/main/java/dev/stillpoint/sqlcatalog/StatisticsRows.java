package dev.stillpoint.sqlcatalog;

import static dev.stillpoint.sqlcatalog.CatalogColumns.ITEM_COUNT;
import static dev.stillpoint.sqlcatalog.CatalogColumns.RELATION_NAME;
import static dev.stillpoint.sqlcatalog.CatalogColumns.SIZE_BYTES;
import static dev.stillpoint.sqlcatalog.CatalogColumns.STATUS;
import static dev.stillpoint.sqlcatalog.CatalogColumns.TABLES;
import static dev.stillpoint.sqlcatalog.CatalogColumns.TABLE_ID;

import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.out.TableStatistics;
import java.math.BigDecimal;
import java.util.List;
import org.jooq.DSLContext;
import org.jooq.Record2;
import org.jooq.impl.DSL;

/**
 * The recount's statements on both jOOQ adapters ({@link TableStatistics}): list the ACTIVE tables with
 * the counts their rows hold, count a base relation's items and bytes, record new counts. Each runs on the
 * caller's connection; which database (catalog or data) and which transaction is the adapter's choice.
 */
public final class StatisticsRows {

    private StatisticsRows() {
    }

    /**
     * An ACTIVE table as the recount lists it.
     *
     * @param tableId      the table's catalog id
     * @param relationName its base relation, as the catalog names it
     * @param recorded     the counts its row holds
     */
    public record Counted(String tableId, String relationName, TableStatistics.Counts recorded)
            implements TableStatistics.Counted {
    }

    /**
     * Every ACTIVE table with its recorded counts.
     *
     * @param catalog the catalog's connection
     * @return the tables, as {@link Counted}
     */
    public static List<TableStatistics.Counted> active(DSLContext catalog) {
        return catalog.select(TABLE_ID, RELATION_NAME, ITEM_COUNT, SIZE_BYTES).from(TABLES)
                .where(STATUS.eq(TableStatus.ACTIVE.name()))
                .fetch(t -> new Counted(t.value1(), t.value2(), new TableStatistics.Counts(t.value3(), t.value4())));
    }

    /**
     * The items of a base relation and the bytes of their stored JSON: the recount's figures, and a completing
     * restore's (the same measure, so the next recount changes nothing).
     *
     * @param data         the connection that reaches the relation
     * @param relationName the base relation's name, checked as a catalog's relation name is
     * @param maxIdLength  the adapter's longest table id
     * @return the counts
     */
    public static TableStatistics.Counts count(DSLContext data, String relationName, int maxIdLength) {
        // A damaged catalog's name is refused before it is quoted into a statement.
        RelationName relation = RelationName.fromCatalog(relationName, maxIdLength);
        Record2<Integer, BigDecimal> counted = data.select(DSL.count(), DSL.coalesce(
                        DSL.sum(DSL.octetLength(DSL.field(DSL.name("item"), String.class))), BigDecimal.ZERO))
                .from(DSL.table(DSL.name(relation.name()))).fetchOne();
        return new TableStatistics.Counts(counted.value1(), counted.value2().longValue());
    }

    /**
     * Records {@code counts} on the table's row.
     *
     * @param catalog the catalog's connection, in the caller's transaction
     * @param table   a table as {@link #active} listed it
     * @param counts  the new counts
     */
    public static void record(DSLContext catalog, TableStatistics.Counted table, TableStatistics.Counts counts) {
        catalog.update(TABLES).set(ITEM_COUNT, counts.items()).set(SIZE_BYTES, counts.bytes())
                .where(TABLE_ID.eq(((Counted) table).tableId())).execute();
    }
}
