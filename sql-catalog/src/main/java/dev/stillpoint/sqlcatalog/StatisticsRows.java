package dev.stillpoint.sqlcatalog;

import static dev.stillpoint.sqlcatalog.CatalogColumns.INDEXES;
import static dev.stillpoint.sqlcatalog.CatalogColumns.INDEX_ITEM_COUNT;
import static dev.stillpoint.sqlcatalog.CatalogColumns.INDEX_NAME;
import static dev.stillpoint.sqlcatalog.CatalogColumns.INDEX_RELATION_NAME;
import static dev.stillpoint.sqlcatalog.CatalogColumns.INDEX_SIZE_BYTES;
import static dev.stillpoint.sqlcatalog.CatalogColumns.INDEX_STATUS;
import static dev.stillpoint.sqlcatalog.CatalogColumns.INDEX_TABLE_ID;
import static dev.stillpoint.sqlcatalog.CatalogColumns.ITEM_COUNT;
import static dev.stillpoint.sqlcatalog.CatalogColumns.RELATION_NAME;
import static dev.stillpoint.sqlcatalog.CatalogColumns.SIZE_BYTES;
import static dev.stillpoint.sqlcatalog.CatalogColumns.STATUS;
import static dev.stillpoint.sqlcatalog.CatalogColumns.TABLES;
import static dev.stillpoint.sqlcatalog.CatalogColumns.TABLE_ID;

import dev.stillpoint.domain.table.IndexStatus;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.out.TableStatistics;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jooq.DSLContext;
import org.jooq.Record2;
import org.jooq.impl.DSL;

/**
 * The recount's statements on both jOOQ adapters ({@link TableStatistics}): list the ACTIVE tables with
 * the counts their rows hold, count a table's base relation and the relation of each of its ACTIVE secondary
 * indexes (items and bytes), record new counts. Each runs on the caller's connection; which database
 * (catalog or data) and which transaction is the adapter's choice.
 */
public final class StatisticsRows {

    private StatisticsRows() {
    }

    /**
     * An ACTIVE table as the recount lists it.
     *
     * @param tableId        the table's catalog id
     * @param relationName   its base relation, as the catalog names it
     * @param indexRelations the relation of each of its ACTIVE secondary indexes, by index name
     * @param recorded       the counts its rows hold
     */
    public record Counted(String tableId, String relationName, Map<String, String> indexRelations,
                          TableStatistics.Counts recorded) implements TableStatistics.Counted {

        /** Copies {@code indexRelations}. */
        public Counted {
            indexRelations = Map.copyOf(indexRelations);
        }
    }

    /** An ACTIVE index row of an ACTIVE table, as listed. */
    private record IndexListed(String tableId, String name, String relationName, TableStatistics.Counts recorded) {
    }

    /**
     * Every ACTIVE table with its recorded counts and those of its ACTIVE indexes (an index still being built
     * or being deleted is left out: its relation may be incomplete or gone).
     *
     * @param catalog the catalog's connection, one transaction for both reads
     * @return the tables, as {@link Counted}
     */
    public static List<TableStatistics.Counted> active(DSLContext catalog) {
        Map<String, List<IndexListed>> indexes = new HashMap<>();
        catalog.select(INDEX_TABLE_ID, INDEX_NAME, INDEX_RELATION_NAME, INDEX_ITEM_COUNT, INDEX_SIZE_BYTES)
                .from(INDEXES).join(TABLES).on(TABLE_ID.eq(INDEX_TABLE_ID))
                .where(STATUS.eq(TableStatus.ACTIVE.name())).and(INDEX_STATUS.eq(IndexStatus.ACTIVE.name()))
                .fetch(i -> new IndexListed(i.value1(), i.value2(), i.value3(),
                        new TableStatistics.Counts(i.value4(), i.value5())))
                .forEach(i -> indexes.computeIfAbsent(i.tableId(), id -> new ArrayList<>()).add(i));
        return catalog.select(TABLE_ID, RELATION_NAME, ITEM_COUNT, SIZE_BYTES).from(TABLES)
                .where(STATUS.eq(TableStatus.ACTIVE.name()))
                .fetch(t -> {
                    Map<String, String> relations = new HashMap<>();
                    Map<String, TableStatistics.Counts> recorded = new HashMap<>();
                    for (IndexListed i : indexes.getOrDefault(t.value1(), List.of())) {
                        relations.put(i.name(), i.relationName());
                        recorded.put(i.name(), i.recorded());
                    }
                    return new Counted(t.value1(), t.value2(), relations,
                            new TableStatistics.Counts(t.value3(), t.value4(), recorded));
                });
    }

    /**
     * The items of a base relation and the bytes of their stored JSON: the recount's figures, and a completing
     * restore's (the same measure, so the next recount changes nothing). Of an index relation, its entries and
     * the bytes of their projected JSON.
     *
     * @param data         the connection that reaches the relation
     * @param relationName the relation's name, checked as a catalog's relation name is
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
     * A listed table's counts now: its base relation's and each listed index relation's.
     *
     * @param data        the connection that reaches the relations
     * @param table       a table as {@link #active} listed it
     * @param maxIdLength the adapter's longest table id
     * @return the counts, with one entry per listed index
     */
    public static TableStatistics.Counts count(DSLContext data, TableStatistics.Counted table, int maxIdLength) {
        Counted listed = (Counted) table;
        return count(data, listed.relationName(), listed.indexRelations(), maxIdLength);
    }

    /** A base relation's counts with those of each index relation of {@code indexRelations} (by index name). */
    static TableStatistics.Counts count(DSLContext data, String relationName, Map<String, String> indexRelations,
                                        int maxIdLength) {
        Map<String, TableStatistics.Counts> indexes = new HashMap<>();
        indexRelations.forEach((name, relation) -> indexes.put(name, count(data, relation, maxIdLength)));
        TableStatistics.Counts base = count(data, relationName, maxIdLength);
        return new TableStatistics.Counts(base.items(), base.bytes(), indexes);
    }

    /**
     * The relation of each ACTIVE secondary index of the table {@code tableId}, by index name.
     *
     * @param catalog the catalog's connection
     * @param tableId the table's catalog id
     * @return the relations
     */
    static Map<String, String> indexRelations(DSLContext catalog, String tableId) {
        return catalog.select(INDEX_NAME, INDEX_RELATION_NAME).from(INDEXES)
                .where(INDEX_TABLE_ID.eq(tableId)).and(INDEX_STATUS.eq(IndexStatus.ACTIVE.name()))
                .fetchMap(INDEX_NAME, INDEX_RELATION_NAME);
    }

    /**
     * Records {@code counts} on the table's row and, for each index they count, on its index row (columns no
     * catalog-version trigger watches, so a recount leaves every cached definition valid).
     *
     * @param catalog the catalog's connection, in the caller's transaction
     * @param table   a table as {@link #active} listed it
     * @param counts  the new counts
     */
    public static void record(DSLContext catalog, TableStatistics.Counted table, TableStatistics.Counts counts) {
        String tableId = ((Counted) table).tableId();
        catalog.update(TABLES).set(ITEM_COUNT, counts.items()).set(SIZE_BYTES, counts.bytes())
                .where(TABLE_ID.eq(tableId)).execute();
        recordIndexes(catalog, tableId, counts);
    }

    /**
     * Records each index's counts of {@code counts} on its row of the table {@code tableId}.
     *
     * @param catalog the catalog's connection, in the caller's transaction
     * @param tableId the table's catalog id
     * @param counts  the counts, with one entry per index counted
     */
    static void recordIndexes(DSLContext catalog, String tableId, TableStatistics.Counts counts) {
        counts.indexes().forEach((name, index) -> catalog.update(INDEXES)
                .set(INDEX_ITEM_COUNT, index.items()).set(INDEX_SIZE_BYTES, index.bytes())
                .where(INDEX_TABLE_ID.eq(tableId)).and(INDEX_NAME.eq(name)).execute());
    }
}
