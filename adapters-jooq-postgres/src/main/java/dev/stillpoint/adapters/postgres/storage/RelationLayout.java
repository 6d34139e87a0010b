package dev.stillpoint.adapters.postgres.storage;

import dev.stillpoint.domain.key.ScalarType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.DataType;
import org.jooq.Field;
import org.jooq.Query;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * The columns of one data relation, typed by the key attributes' declared types:
 *
 * <pre>
 *   pk       the partition key value     S: text COLLATE "C", N: numeric, B: bytea
 *   sk       the sort key value          (only when the key has a sort attribute)
 *   base_pk  index relations: the base item's partition key value, typed like the base's pk
 *   base_sk  index relations: the base item's sort key value (only when the table has one)
 *   item     the whole item as DynamoDB JSON text, as stored
 * </pre>
 *
 * The primary key is the key columns (index relations: index key, then base key), so the
 * primary-key order of the base relation is {@code KeyOrder}'s: text compared bytewise under "C"
 * (UTF-8 code point order), numeric by value, bytea as unsigned bytes with a prefix first. Every
 * statement is built with jOOQ from these typed fields; values are bind parameters.
 */
public final class RelationLayout {

    /** A text column compared bytewise, whatever the database's collation. */
    public static final DataType<String> TEXT_C = SQLDataType.CLOB.collation(DSL.collation("C")).nullable(false);

    private static final Field<String> ITEM = DSL.field(DSL.name("item"), SQLDataType.CLOB.nullable(false));

    private final DataRelation relation;
    private final Field<Object> pk;
    private final Optional<Field<Object>> sk;
    private final Optional<Field<Object>> basePk;
    private final Optional<Field<Object>> baseSk;
    private final List<ScalarType> keyTypes;

    private RelationLayout(DataRelation relation, Field<Object> pk, Optional<Field<Object>> sk,
                           Optional<Field<Object>> basePk, Optional<Field<Object>> baseSk, List<ScalarType> keyTypes) {
        this.relation = relation;
        this.keyTypes = keyTypes;
        this.pk = pk;
        this.sk = sk;
        this.basePk = basePk;
        this.baseSk = baseSk;
    }

    /** A base relation keyed by the table's key types. */
    public static RelationLayout base(DataRelation relation, ScalarType pkType, Optional<ScalarType> skType) {
        return new RelationLayout(relation, column("pk", pkType), skType.map(t -> column("sk", t)),
                Optional.empty(), Optional.empty(), types(pkType, skType));
    }

    /** An index relation keyed by the index's key types, then the table's. */
    public static RelationLayout index(DataRelation relation, ScalarType pkType, Optional<ScalarType> skType,
                                       ScalarType basePkType, Optional<ScalarType> baseSkType) {
        return new RelationLayout(relation, column("pk", pkType), skType.map(t -> column("sk", t)),
                Optional.of(column("base_pk", basePkType)), baseSkType.map(t -> column("base_sk", t)), types(pkType, skType));
    }

    private static List<ScalarType> types(ScalarType pk, Optional<ScalarType> sk) {
        return sk.map(s -> List.of(pk, s)).orElse(List.of(pk));
    }

    /** The SQL type a key attribute of {@code type} is stored as. */
    @SuppressWarnings("unchecked")
    public static DataType<Object> typeOf(ScalarType type) {
        DataType<?> t = switch (type) {
            case S -> TEXT_C;
            case N -> SQLDataType.NUMERIC.nullable(false);
            case B -> SQLDataType.BLOB.nullable(false);
        };
        return (DataType<Object>) t;
    }

    private static Field<Object> column(String name, ScalarType type) {
        return DSL.field(DSL.name(name), typeOf(type));
    }

    public DataRelation relation() {
        return relation;
    }

    public Field<Object> pk() {
        return pk;
    }

    public Optional<Field<Object>> sk() {
        return sk;
    }

    /** Index relations only. */
    public Optional<Field<Object>> basePk() {
        return basePk;
    }

    /** Index relations of a table with a sort key only. */
    public Optional<Field<Object>> baseSk() {
        return baseSk;
    }

    public Field<String> item() {
        return ITEM;
    }

    /** The relation's own key columns, pk then sk: the order a snapshot streams the base relation in. */
    public List<Field<Object>> keyColumns() {
        List<Field<Object>> out = new ArrayList<>();
        out.add(pk);
        sk.ifPresent(out::add);
        return out;
    }

    /** The DynamoDB types of {@link #keyColumns()}, in the same order. */
    public List<ScalarType> keyTypes() {
        return keyTypes;
    }

    /** The base item's key columns of an index relation. */
    public List<Field<Object>> baseKeyColumns() {
        List<Field<Object>> out = new ArrayList<>();
        basePk.ifPresent(out::add);
        baseSk.ifPresent(out::add);
        return out;
    }

    /** Every column in order. */
    public List<Field<?>> fields() {
        List<Field<?>> out = new ArrayList<>(keyColumns());
        out.addAll(baseKeyColumns());
        out.add(ITEM);
        return out;
    }

    private List<Field<?>> primaryKey() {
        List<Field<?>> out = new ArrayList<>(keyColumns());
        out.addAll(baseKeyColumns());
        return out;
    }

    /** Index relations: the entry of {@code entryKey} for the base item {@code baseKey}, holding {@code json}. */
    public Query insertEntry(DSLContext ctx, List<Object> entryKey, List<Object> baseKey, String json) {
        List<Object> values = new ArrayList<>(entryKey);
        values.addAll(baseKey);
        values.add(json);
        return ctx.insertInto(relation().table()).columns(fields()).values(values);
    }

    /**
     * The statements that create the relation: the table with its primary key, and for an index
     * relation a secondary index on the base key, so an item write finds its old entries without a scan.
     */
    public List<Query> createAll(DSLContext ctx) {
        List<Query> out = new ArrayList<>();
        out.add(ctx.createTable(relation.table()).columns(fields()).primaryKey(primaryKey()));
        if (basePk.isPresent()) {
            out.add(ctx.createIndex(DSL.name(relation.name() + "__base")).on(relation.table(), baseKeyColumns()));
        }
        return out;
    }
}
