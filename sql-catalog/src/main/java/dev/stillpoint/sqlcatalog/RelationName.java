package dev.stillpoint.sqlcatalog;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The name of one data relation of a table: its base relation or the relation of one of its GSIs,
 * LSIs or vector indexes, derived from the table's id and the index's ordinal only:
 * <pre>
 *   d_&lt;tableId&gt;                 base items
 *   d_&lt;tableId&gt;__gsi__&lt;ordinal&gt;   global secondary index
 *   d_&lt;tableId&gt;__lsi__&lt;ordinal&gt;   local secondary index
 *   d_&lt;tableId&gt;__vec__&lt;ordinal&gt;   vector index
 *   d_&lt;tableId&gt;__chg__0          change log [I1] (one per table that keeps one)
 * </pre>
 * So no user-supplied name ever becomes an SQL identifier; each adapter quotes the name with
 * {@code DSL.name} and gives the relation its own columns.
 */
public record RelationName(String name, Kind kind) {

    /** Which kind of relation this is. */
    public enum Kind {
        BASE(""), GSI("__gsi__"), LSI("__lsi__"), VECTOR("__vec__"), CHANGES("__chg__");

        private final String infix;

        Kind(String infix) {
            this.infix = infix;
        }
    }

    private static final Pattern NAME =
            Pattern.compile("d_([a-z0-9]{1,64})(?:(__gsi__|__lsi__|__vec__|__chg__)(0|[1-9][0-9]{0,8}))?");

    /** The base relation of table {@code tableId} (an id of [a-z0-9], checked by the adapter's table id). */
    public static RelationName base(String tableId) {
        return new RelationName("d_" + tableId, Kind.BASE);
    }

    /** The relation of index {@code ordinal} of {@code kind} (not BASE) of table {@code tableId}. */
    public static RelationName index(String tableId, Kind kind, int ordinal) {
        if (kind == Kind.BASE) {
            throw new IllegalArgumentException("an index relation needs an index kind");
        }
        if (ordinal < 0) {
            throw new IllegalArgumentException("index ordinal must not be negative: " + ordinal);
        }
        return new RelationName("d_" + tableId + kind.infix + ordinal, kind);
    }

    /** The change log relation of table {@code tableId} [I1]: one per table, so its ordinal is always 0. */
    public static RelationName changes(String tableId) {
        return new RelationName("d_" + tableId + Kind.CHANGES.infix + 0, Kind.CHANGES);
    }

    /**
     * The relation named by a catalog row's {@code relation_name}, whose table id has at most
     * {@code maxIdLength} characters; refuses any name this class would not have produced, so a
     * damaged catalog cannot smuggle an identifier into SQL.
     */
    public static RelationName fromCatalog(String relationName, int maxIdLength) {
        Matcher m = NAME.matcher(relationName == null ? "" : relationName);
        if (!m.matches() || m.group(1).length() > maxIdLength) {
            throw new IllegalArgumentException("not a data relation name: " + relationName);
        }
        Kind kind = Kind.BASE;
        for (Kind k : Kind.values()) {
            if (k != Kind.BASE && k.infix.equals(m.group(2))) {
                kind = k;
            }
        }
        return new RelationName(relationName, kind);
    }

    /**
     * The table id a relation name belongs to, when the name is one an adapter makes with ids of
     * {@code ownId}'s shape; empty for any other name (such as {@code d_users}).
     */
    public static Optional<String> tableIdOf(String relationName, Pattern ownId) {
        Matcher m = NAME.matcher(relationName == null ? "" : relationName);
        return m.matches() && ownId.matcher(m.group(1)).matches() ? Optional.of(m.group(1)) : Optional.empty();
    }
}
