package dev.stillpoint.adapters.postgres.storage;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jooq.DSLContext;
import org.jooq.Query;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.impl.DSL;

/**
 * The name of one data relation of a table: its base relation or the relation of one of its GSIs,
 * LSIs or vector indexes, derived from the table's {@link TableId} and the index's ordinal only:
 *
 * <pre>
 *   d_&lt;tableId&gt;                    base
 *   d_&lt;tableId&gt;__gsi__&lt;ordinal&gt;     global secondary index
 *   d_&lt;tableId&gt;__lsi__&lt;ordinal&gt;     local secondary index
 *   d_&lt;tableId&gt;__vec__&lt;ordinal&gt;     vector index
 * </pre>
 *
 * So no user-supplied name ever becomes an SQL identifier: the relation is
 * {@code DSL.table(DSL.name(name))}, quoted by jOOQ. Its columns are {@link RelationLayout}'s.
 */
public final class DataRelation {

    /** Which kind of relation this is. */
    public enum Kind {
        BASE(""), GSI("__gsi__"), LSI("__lsi__"), VECTOR("__vec__");

        private final String infix;

        Kind(String infix) {
            this.infix = infix;
        }
    }

    private static final Pattern NAME =
            Pattern.compile("d_([a-z0-9]{1,32})(?:(__gsi__|__lsi__|__vec__)(0|[1-9][0-9]{0,8}))?");

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

    public static DataRelation vectorIndex(TableId table, int ordinal) {
        return index(table, Kind.VECTOR, ordinal);
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
        Kind kind = Kind.BASE;
        if (m.group(2) != null) {
            for (Kind k : Kind.values()) {
                if (k != Kind.BASE && k.infix.equals(m.group(2))) {
                    kind = k;
                }
            }
        }
        return new DataRelation(relationName, kind);
    }

    /**
     * The table id a relation name belongs to, when the name is one this adapter makes: the id is
     * {@link TableId#random()}'s 32 lower-case hex digits, in {@code d_<id>}, {@code d_<id>__gsi__<n>},
     * {@code __lsi__<n>} or {@code __vec__<n>}. Empty for any other name (such as {@code d_users}),
     * which the orphan sweep therefore never touches [L2].
     */
    public static java.util.Optional<String> tableIdOf(String relationName) {
        Matcher m = NAME.matcher(relationName == null ? "" : relationName);
        return m.matches() && OWN_ID.matcher(m.group(1)).matches()
                ? java.util.Optional.of(m.group(1)) : java.util.Optional.empty();
    }

    private static final Pattern OWN_ID = Pattern.compile("[0-9a-f]{32}");

    public String name() {
        return name;
    }

    public Kind kind() {
        return kind;
    }

    public Table<Record> table() {
        return table;
    }

    /**
     * {@code DROP TABLE IF EXISTS}, never CASCADE: a dependent object (a view an operator made)
     * fails the drop instead of disappearing with it.
     */
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
}
