package dev.stillpoint.sqlcatalog;

import org.jooq.DSLContext;
import org.jooq.Query;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.impl.DSL;

/**
 * A data relation as jOOQ addresses it: its {@link RelationName} quoted by {@code DSL.name}, so no
 * user-supplied name ever becomes an SQL identifier. Each adapter's {@code DataRelation} extends it
 * with its own columns; two relations are equal when they are of one class and one name.
 */
public abstract class NamedRelation {

    private final RelationName relation;
    private final Table<Record> table;

    /** The relation {@code relation} names. */
    protected NamedRelation(RelationName relation) {
        this.relation = relation;
        this.table = DSL.table(DSL.name(relation.name()));
    }

    /** The relation's name, {@code d_<id>...}. */
    public String name() {
        return relation.name();
    }

    /** Base or which kind of index relation. */
    public RelationName.Kind kind() {
        return relation.kind();
    }

    /** The relation as a jOOQ table. */
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
        return relation.name();
    }

    @Override
    public boolean equals(Object o) {
        return o != null && o.getClass() == getClass() && ((NamedRelation) o).relation.equals(relation);
    }

    @Override
    public int hashCode() {
        return relation.hashCode();
    }
}
