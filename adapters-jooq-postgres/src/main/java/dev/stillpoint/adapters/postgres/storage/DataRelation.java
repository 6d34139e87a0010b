package dev.stillpoint.adapters.postgres.storage;

import dev.stillpoint.sqlcatalog.TableId;
import dev.stillpoint.sqlcatalog.NamedRelation;
import dev.stillpoint.sqlcatalog.RelationName;
import java.util.Optional;
import java.util.regex.Pattern;
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
public final class DataRelation extends NamedRelation {

    private DataRelation(RelationName relation) {
        super(relation);
    }

    /** The relation {@code name} names (made by {@link RelationName} from a {@link TableId}). */
    public static DataRelation of(RelationName name) {
        return new DataRelation(name);
    }

    /**
     * The relation named by a catalog row's {@code relation_name}; refuses any name this adapter would
     * not have produced, so a damaged catalog cannot smuggle an identifier into SQL.
     */
    public static DataRelation fromCatalog(String relationName) {
        return new DataRelation(RelationName.fromCatalog(relationName, TableId.MAX_LENGTH));
    }

    /**
     * The table id a relation name belongs to, when the name is one this adapter makes: the id is
     * {@link TableId#random()}'s 32 lower-case hex digits, in {@code d_<id>}, {@code d_<id>__gsi__<n>},
     * {@code __lsi__<n>} or {@code __vec__<n>}. Empty for any other name (such as {@code d_users}),
     * which the orphan sweep therefore never touches [L2].
     */
    public static Optional<String> tableIdOf(String relationName) {
        return RelationName.tableIdOf(relationName, OWN_ID);
    }

    private static final Pattern OWN_ID = Pattern.compile("[0-9a-f]{32}");
}
