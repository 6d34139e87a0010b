package dev.stillpoint.adapters.sqlite.storage;

import static dev.stillpoint.adapters.sqlite.generated.Tables.SP_DATA_TEMPLATE;
import static dev.stillpoint.adapters.sqlite.generated.Tables.SP_INDEX_DATA_TEMPLATE;

import dev.stillpoint.sqlcatalog.NamedRelation;
import dev.stillpoint.sqlcatalog.RelationName;
import dev.stillpoint.sqlcatalog.TableId;
import java.util.List;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Name;
import org.jooq.Query;
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
public final class DataRelation extends NamedRelation {

    private static final Field<byte[]> PK = unqualified(SP_DATA_TEMPLATE.PK);
    private static final Field<byte[]> SK = unqualified(SP_DATA_TEMPLATE.SK);
    private static final Field<String> ITEM = unqualified(SP_DATA_TEMPLATE.ITEM);
    private static final Field<byte[]> BASE_PK = unqualified(SP_INDEX_DATA_TEMPLATE.BASE_PK);
    private static final Field<byte[]> BASE_SK = unqualified(SP_INDEX_DATA_TEMPLATE.BASE_SK);

    private DataRelation(RelationName relation) {
        super(relation);
    }

    /** The relation {@code name} names (made by {@link RelationName} from a table id). */
    public static DataRelation of(RelationName name) {
        return new DataRelation(name);
    }

    /**
     * The relation named by a catalog row's {@code relation_name}; refuses any name this adapter would
     * not have produced, so a damaged catalog cannot smuggle an identifier into SQL.
     */
    public static DataRelation fromCatalog(String relationName) {
        RelationName relation = RelationName.fromCatalog(relationName, TableId.MAX_LENGTH);
        if (relation.kind() == RelationName.Kind.VECTOR || relation.kind() == RelationName.Kind.CHANGES) {
            throw new IllegalArgumentException("not a data relation name of this adapter: " + relationName);
        }
        return new DataRelation(relation);
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
        return kind() == RelationName.Kind.BASE ? Optional.empty() : Optional.of(BASE_PK);
    }

    /** Index relations only: the base item's encoded sort key. */
    public Optional<Field<byte[]>> baseSk() {
        return kind() == RelationName.Kind.BASE ? Optional.empty() : Optional.of(BASE_SK);
    }

    /** The columns in template order. */
    public List<Field<?>> fields() {
        return kind() == RelationName.Kind.BASE ? List.of(PK, SK, ITEM) : List.of(PK, SK, BASE_PK, BASE_SK, ITEM);
    }

    /** The primary key, which is also the keyset order of a snapshot page (Q3). */
    public List<Field<byte[]>> primaryKey() {
        return kind() == RelationName.Kind.BASE ? List.of(PK, SK) : List.of(PK, SK, BASE_PK, BASE_SK);
    }

    /** {@code CREATE TABLE} in the template's shape: a rowid table (never WITHOUT ROWID). */
    public Query create(DSLContext ctx) {
        return ctx.createTable(table()).columns(fields()).primaryKey(primaryKey());
    }

    /**
     * The statements that create the relation: the table, and for an index relation a secondary
     * index on {@code (base_pk, base_sk)}, so an item write finds its old index entries without a scan.
     */
    public List<Query> createAll(DSLContext ctx) {
        if (kind() == RelationName.Kind.BASE) {
            return List.of(create(ctx));
        }
        return List.of(create(ctx), ctx.createIndex(DSL.name(name() + "__base")).on(table(), BASE_PK, BASE_SK));
    }

    private static <T> Field<T> unqualified(Field<T> templateField) {
        Name column = templateField.getUnqualifiedName();
        return DSL.field(column, templateField.getDataType());
    }
}
