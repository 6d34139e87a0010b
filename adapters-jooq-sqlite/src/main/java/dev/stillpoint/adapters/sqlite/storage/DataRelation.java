package dev.stillpoint.adapters.sqlite.storage;

import static dev.stillpoint.adapters.sqlite.generated.Tables.SP_DATA_TEMPLATE;
import static dev.stillpoint.adapters.sqlite.generated.Tables.SP_INDEX_DATA_TEMPLATE;

import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Name;
import org.jooq.Query;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.impl.DSL;

/**
 * One data relation of a table: its base relation or the relation of one of its GSIs or LSIs.
 *
 * <p>Every relation has the shape of a generated template table ({@code sp_data_template} for the
 * base, {@code sp_index_data_template} for an index; see {@code templates/data_relation.sql}) under a
 * name derived from the table's {@link TableId} and the index's ordinal only:
 *
 * <pre>
 *   d_&lt;tableId&gt;                    base
 *   d_&lt;tableId&gt;__gsi__&lt;ordinal&gt;     global secondary index
 *   d_&lt;tableId&gt;__lsi__&lt;ordinal&gt;     local secondary index
 * </pre>
 *
 * <p>So no user-supplied name ever becomes an SQL identifier, and no SQL is built by string
 * concatenation: the relation is {@code DSL.table(DSL.name(relationName))} and its columns are the
 * template's typed fields re-used by their unqualified names ({@code "pk"}, not
 * {@code "sp_data_template"."pk"}). Queries over one relation therefore read
 * {@code select "pk", "sk", "item" from "d_<id>" where "pk" = ?}.
 */
public final class DataRelation {

    /** Which template a relation follows. */
    public enum Kind {
        BASE(""), GSI("__gsi__"), LSI("__lsi__");

        private final String infix;

        Kind(String infix) {
            this.infix = infix;
        }
    }

    private static final Pattern NAME =
            Pattern.compile("d_([a-z0-9]{1,64})(?:(__gsi__|__lsi__)(0|[1-9][0-9]{0,8}))?");

    private static final Field<byte[]> PK = unqualified(SP_DATA_TEMPLATE.PK);
    private static final Field<byte[]> SK = unqualified(SP_DATA_TEMPLATE.SK);
    private static final Field<String> ITEM = unqualified(SP_DATA_TEMPLATE.ITEM);
    private static final Field<byte[]> BASE_PK = unqualified(SP_INDEX_DATA_TEMPLATE.BASE_PK);
    private static final Field<byte[]> BASE_SK = unqualified(SP_INDEX_DATA_TEMPLATE.BASE_SK);

    private final String name;
    private final Kind kind;
    private final Table<Record> table;

    private DataRelation(String name, Kind kind) {
        this.name = name;
        this.kind = kind;
        this.table = DSL.table(DSL.name(name));
    }

    public static DataRelation base(TableId table) {
        return new DataRelation("d_" + table.value(), Kind.BASE);
    }

    public static DataRelation globalIndex(TableId table, int ordinal) {
        return index(table, Kind.GSI, ordinal);
    }

    public static DataRelation localIndex(TableId table, int ordinal) {
        return index(table, Kind.LSI, ordinal);
    }

    private static DataRelation index(TableId table, Kind kind, int ordinal) {
        if (ordinal < 0) {
            throw new IllegalArgumentException("index ordinal must not be negative: " + ordinal);
        }
        return new DataRelation("d_" + table.value() + kind.infix + ordinal, kind);
    }

    /**
     * The relation named by a catalog row's {@code relation_name}; refuses any name this class would
     * not have produced, so a damaged catalog cannot smuggle an identifier into SQL.
     */
    public static DataRelation fromCatalog(String relationName) {
        Matcher m = NAME.matcher(relationName == null ? "" : relationName);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a data relation name: " + relationName);
        }
        Kind kind = m.group(2) == null ? Kind.BASE : m.group(2).equals(Kind.GSI.infix) ? Kind.GSI : Kind.LSI;
        return new DataRelation(relationName, kind);
    }

    public String name() {
        return name;
    }

    public Kind kind() {
        return kind;
    }

    public Table<Record> table() {
        return table;
    }

    /** Encoded partition key ({@link KeyCodec}). */
    public Field<byte[]> pk() {
        return PK;
    }

    /** Encoded sort key; {@link KeyCodec#absentSortKey()} when the key has none. */
    public Field<byte[]> sk() {
        return SK;
    }

    /** The item as DynamoDB JSON text. */
    public Field<String> item() {
        return ITEM;
    }

    /** Index relations only: the base item's encoded partition key. */
    public Optional<Field<byte[]>> basePk() {
        return kind == Kind.BASE ? Optional.empty() : Optional.of(BASE_PK);
    }

    /** Index relations only: the base item's encoded sort key. */
    public Optional<Field<byte[]>> baseSk() {
        return kind == Kind.BASE ? Optional.empty() : Optional.of(BASE_SK);
    }

    /** The columns in template order. */
    public List<Field<?>> fields() {
        return kind == Kind.BASE ? List.of(PK, SK, ITEM) : List.of(PK, SK, BASE_PK, BASE_SK, ITEM);
    }

    /** The primary key, which is also the keyset order of a snapshot page (Q3). */
    public List<Field<byte[]>> primaryKey() {
        return kind == Kind.BASE ? List.of(PK, SK) : List.of(PK, SK, BASE_PK, BASE_SK);
    }

    /** {@code CREATE TABLE} in the template's shape: a rowid table (never WITHOUT ROWID). */
    public Query create(DSLContext ctx) {
        return ctx.createTable(table).columns(fields()).primaryKey(primaryKey());
    }

    /**
     * The statements that create the relation: the table, and for an index relation a secondary
     * index on {@code (base_pk, base_sk)}, so an item write finds its old index entries without a scan.
     */
    public List<Query> createAll(DSLContext ctx) {
        if (kind == Kind.BASE) {
            return List.of(create(ctx));
        }
        return List.of(create(ctx), ctx.createIndex(DSL.name(name + "__base")).on(table, BASE_PK, BASE_SK));
    }

    public Query dropIfExists(DSLContext ctx) {
        return ctx.dropTableIfExists(table);
    }

    @Override
    public String toString() {
        return name;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DataRelation other && other.name.equals(name);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }

    private static <T> Field<T> unqualified(Field<T> templateField) {
        Name column = templateField.getUnqualifiedName();
        return DSL.field(column, templateField.getDataType());
    }
}
