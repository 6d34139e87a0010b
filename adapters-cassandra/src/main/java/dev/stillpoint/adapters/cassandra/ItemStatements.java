package dev.stillpoint.adapters.cassandra;

import java.util.ArrayList;
import java.util.List;

/**
 * The CQL of item and index-entry statements, with every value a bind marker: only identifiers are
 * written into the text, and those are the generated names {@link DataNames} checks as safe unquoted
 * identifiers (an identifier cannot be bound). The driver's query builder is not on this module's
 * classpath, and these few shapes do not warrant the dependency; {@link Cql} prepares each text once.
 */
final class ItemStatements {

    /** The write timestamp of a restored item's cells: below any a later write can carry. */
    static final long RESTORED_AT = 1;

    private ItemStatements() {
    }

    /**
     * The bind values of a statement, in its markers' order: a {@link CqlKey} gives its one or two values,
     * anything else is one value.
     */
    static Object[] values(Object... parts) {
        List<Object> all = new ArrayList<>();
        for (Object part : parts) {
            if (part instanceof CqlKey key) {
                all.addAll(List.of(key.values()));
            } else {
                all.add(part);
            }
        }
        return all.toArray();
    }

    /** Reads an item's text and revision: values key. */
    static String selectItem(CatalogRow row) {
        return "SELECT item, rev FROM " + row.itemsTable() + whereKey(row);
    }

    /** Every item of the table with its key and revision, for a backfill. */
    static String selectKeyedItems(CatalogRow row) {
        return "SELECT pk" + (composite(row) ? ", sk" : "") + ", item, rev FROM " + row.itemsTable();
    }

    /** Every item's text, in token order. */
    static String selectItems(String qualifiedTable) {
        return "SELECT item FROM " + qualifiedTable;
    }

    /** Inserts an absent item: values key, item, rev. */
    static String insertItem(CatalogRow row) {
        boolean composite = composite(row);
        return "INSERT INTO " + row.itemsTable() + " (pk" + (composite ? ", sk" : "") + ", item, rev) VALUES (?"
                + (composite ? ", ?" : "") + ", ?, ?) IF NOT EXISTS";
    }

    /**
     * Inserts a restored item, without a condition, at the write timestamp {@link #RESTORED_AT}: values key,
     * item, rev. Every later write of the item is a lightweight transaction whose cells carry a Paxos ballot's
     * timestamp, which is above it whatever the clocks, so none is shadowed by the restore's cells.
     */
    static String restoreItem(CatalogRow row) {
        boolean composite = composite(row);
        return "INSERT INTO " + row.itemsTable() + " (pk" + (composite ? ", sk" : "") + ", item, rev) VALUES (?"
                + (composite ? ", ?" : "") + ", ?, ?) USING TIMESTAMP " + RESTORED_AT;
    }

    /** Every item's key, to count the items a table holds. */
    static String selectKeys(CatalogRow row) {
        return "SELECT pk FROM " + row.itemsTable();
    }

    /** Replaces an item under the revision it was read at: values item, rev, key, the revision read. */
    static String updateItem(CatalogRow row) {
        return "UPDATE " + row.itemsTable() + " SET item = ?, rev = ?" + whereKey(row) + " IF rev = ?";
    }

    /** Deletes an item under the revision it was read at: values key, the revision read. */
    static String deleteItem(CatalogRow row) {
        return "DELETE FROM " + row.itemsTable() + whereKey(row) + " IF rev = ?";
    }

    /** Writes an index entry at its item's revision: values index key, base key, projected item, rev. */
    static String insertEntry(CatalogRow row, IndexDef index) {
        boolean indexSort = index.keySchema().sortKey().isPresent();
        boolean baseSort = composite(row);
        return "INSERT INTO " + row.qualified(index) + " (ipk" + (indexSort ? ", isk" : "") + ", bpk"
                + (baseSort ? ", bsk" : "") + ", item) VALUES (?" + (indexSort ? ", ?" : "") + ", ?"
                + (baseSort ? ", ?" : "") + ", ?) USING TIMESTAMP ?";
    }

    /** Deletes an index entry at the revision of the change that removed it: values rev, index key, base key. */
    static String deleteEntry(CatalogRow row, IndexDef index) {
        return "DELETE FROM " + row.qualified(index) + " USING TIMESTAMP ? WHERE ipk = ?"
                + (index.keySchema().sortKey().isPresent() ? " AND isk = ?" : "") + " AND bpk = ?"
                + (composite(row) ? " AND bsk = ?" : "");
    }

    private static String whereKey(CatalogRow row) {
        return " WHERE pk = ?" + (composite(row) ? " AND sk = ?" : "");
    }

    private static boolean composite(CatalogRow row) {
        return row.keySchema().sortKey().isPresent();
    }
}
