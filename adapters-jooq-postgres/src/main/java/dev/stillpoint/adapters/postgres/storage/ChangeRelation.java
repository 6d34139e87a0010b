package dev.stillpoint.adapters.postgres.storage;

import dev.stillpoint.sqlcatalog.ChangeRows;
import dev.stillpoint.sqlcatalog.TableId;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.sqlcatalog.RelationName;
import java.util.List;
import java.util.Optional;

/**
 * A table's change log relation on PostgreSQL [I1], {@code d_<tableId>__chg__0}, in the data database beside
 * the base relation, created with a table that keeps a log and dropped with its other relations:
 *
 * <pre>
 *   seq        bigint identity, the primary key: orders one key's changes (taken after the write holds the
 *              item's row, so for one key it is the commit order); never compared across keys
 *   xid        xid8, the writing transaction's id (pg_current_xact_id()): the change belongs to the window
 *              (A, B] exactly when it is visible in snapshot B and not in snapshot A (pg_visible_in_snapshot)
 *   kind       PUT, DELETE (a tombstone), START (the log's first instant), MARK (a trim pass's checkpoint)
 *   pk, sk     the item's key, typed as the base relation's (sk only when the table has a sort key)
 *   key_json   the key attributes as DynamoDB JSON
 *   new_image  PUT: the item as written; otherwise NULL
 *   old_image  the item the write replaced or deleted, when the log is NEW_AND_OLD_IMAGES
 *   at_millis  MARK: the control plane's clock when the pass wrote it (epoch milliseconds) [I4]
 *   snap       MARK: pg_current_snapshot() of the pass's transaction, what a trim to it deletes [I4]
 * </pre>
 *
 * The SQL is written here as text over quoted names derived from the table id only ({@link RelationName}),
 * as jOOQ has no xid8 or pg_snapshot type; every value is a bind parameter.
 */
public final class ChangeRelation {

    private final DataRelation relation;
    private final ScalarType pkType;
    private final Optional<ScalarType> skType;

    private ChangeRelation(DataRelation relation, ScalarType pkType, Optional<ScalarType> skType) {
        this.relation = relation;
        this.pkType = pkType;
        this.skType = skType;
    }

    /** The change relation of the table {@code tableId}, keyed by the table's key types. */
    public static ChangeRelation of(String tableId, ScalarType pkType, Optional<ScalarType> skType) {
        return new ChangeRelation(DataRelation.of(RelationName.changes(new TableId(tableId).value())), pkType, skType);
    }

    /** The relation's name, as the drop, the lock probe and the register know it. */
    public DataRelation relation() {
        return relation;
    }

    /** The quoted name. */
    public String quoted() {
        return quote(relation.name());
    }

    /** {@code pk} or {@code pk, sk}: the key columns. */
    public String keyColumns() {
        return skType.isPresent() ? "pk, sk" : "pk";
    }

    /** One placeholder per key column. */
    public String keyPlaceholders() {
        return skType.isPresent() ? "?, ?" : "?";
    }

    /** {@code pk = ? [AND sk = ?]} over {@code alias}'s key columns ({@code alias.} prefix when not empty). */
    public static String keyMatch(String alias, boolean sortKey) {
        String p = alias.isEmpty() ? "" : alias + ".";
        return p + "pk = ?" + (sortKey ? " AND " + p + "sk = ?" : "");
    }

    /** Whether the table has a sort key. */
    public boolean sortKey() {
        return skType.isPresent();
    }

    /** The statements that create the relation, its index on xid, and write the START row [I4]. */
    public List<String> create() {
        String columns = "seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
                + " xid xid8 NOT NULL DEFAULT pg_current_xact_id(),"
                + " kind text NOT NULL,"
                + " pk " + sqlType(pkType)
                + skType.map(t -> ", sk " + sqlType(t)).orElse("")
                + ", key_json text, new_image text, old_image text, at_millis bigint, snap pg_snapshot";
        return List.of("CREATE TABLE " + quoted() + " (" + columns + ")",
                // The window's rows are those with xid >= the start snapshot's xmin (any older one is visible in it).
                "CREATE INDEX " + quote(relation.name() + "__xid") + " ON " + quoted() + " (xid)",
                start());
    }

    /**
     * The statements that start the log again over its existing relation [I4]: every row goes (a trim pass
     * may have marked the relation while the log was off, and a MARK older than this START must never
     * become a START), then the new START row, whose xid is this transaction's.
     */
    public List<String> restart() {
        return List.of(discard(), start());
    }

    private String start() {
        return "INSERT INTO " + quoted() + " (kind) VALUES ('" + ChangeRows.START + "')";
    }

    /** The statement that discards every record of the log, keeping the relation: no reader's lock is waited for. */
    public String discard() {
        return "DELETE FROM " + quoted();
    }

    /** The SQL type of a key column: the base relation's, nullable (START and MARK rows have no key). */
    private static String sqlType(ScalarType type) {
        return switch (type) {
            case S -> "text COLLATE \"C\"";
            case N -> "numeric";
            case B -> "bytea";
        };
    }

    /** A relation name as an SQL identifier; names come from {@link RelationName} only ([a-z0-9_]). */
    public static String quote(String name) {
        return "\"" + name + "\"";
    }
}
