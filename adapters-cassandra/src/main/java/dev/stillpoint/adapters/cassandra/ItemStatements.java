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

    private ItemStatements() {
    }

    /** Reads an item's text and revision by its key: values {@link BaseKey#values()}. */
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

    /** Inserts an absent item: values {@link #insertValues}. */
    static String insertItem(CatalogRow row) {
        boolean composite = composite(row);
        return "INSERT INTO " + row.itemsTable() + " (pk" + (composite ? ", sk" : "") + ", item, rev) VALUES (?"
                + (composite ? ", ?" : "") + ", ?, ?) IF NOT EXISTS";
    }

    static Object[] insertValues(BaseKey key, String json, long rev) {
        List<Object> all = new ArrayList<>(List.of(key.values()));
        all.add(json);
        all.add(rev);
        return all.toArray();
    }

    /** Replaces an item under the revision it was read at: values {@link #updateValues}. */
    static String updateItem(CatalogRow row) {
        return "UPDATE " + row.itemsTable() + " SET item = ?, rev = ?" + whereKey(row) + " IF rev = ?";
    }

    static Object[] updateValues(String json, long rev, BaseKey key, long expected) {
        List<Object> all = new ArrayList<>();
        all.add(json);
        all.add(rev);
        all.addAll(List.of(key.values()));
        all.add(expected);
        return all.toArray();
    }

    /** Deletes an item under the revision it was read at: values {@link #deleteValues}. */
    static String deleteItem(CatalogRow row) {
        return "DELETE FROM " + row.itemsTable() + whereKey(row) + " IF rev = ?";
    }

    static Object[] deleteValues(BaseKey key, long expected) {
        List<Object> all = new ArrayList<>(List.of(key.values()));
        all.add(expected);
        return all.toArray();
    }

    /** Writes an index entry at its item's revision: values {@link #insertEntryValues}. */
    static String insertEntry(CatalogRow row, IndexDef index) {
        boolean indexSort = index.keySchema().sortKey().isPresent();
        boolean baseSort = composite(row);
        return "INSERT INTO " + row.qualified(index) + " (ipk" + (indexSort ? ", isk" : "") + ", bpk"
                + (baseSort ? ", bsk" : "") + ", item) VALUES (?" + (indexSort ? ", ?" : "") + ", ?"
                + (baseSort ? ", ?" : "") + ", ?) USING TIMESTAMP ?";
    }

    static Object[] insertEntryValues(IndexKey key, BaseKey base, String projectedJson, long rev) {
        List<Object> values = new ArrayList<>(key.values());
        values.addAll(List.of(base.values()));
        values.add(projectedJson);
        values.add(rev);
        return values.toArray();
    }

    /** Deletes an index entry at the revision of the change that removed it: values {@link #deleteEntryValues}. */
    static String deleteEntry(CatalogRow row, IndexDef index) {
        return "DELETE FROM " + row.qualified(index) + " USING TIMESTAMP ? WHERE ipk = ?"
                + (index.keySchema().sortKey().isPresent() ? " AND isk = ?" : "") + " AND bpk = ?"
                + (composite(row) ? " AND bsk = ?" : "");
    }

    static Object[] deleteEntryValues(IndexKey key, BaseKey base, long rev) {
        List<Object> values = new ArrayList<>();
        values.add(rev);
        values.addAll(key.values());
        values.addAll(List.of(base.values()));
        return values.toArray();
    }

    private static String whereKey(CatalogRow row) {
        return " WHERE pk = ?" + (composite(row) ? " AND sk = ?" : "");
    }

    private static boolean composite(CatalogRow row) {
        return row.keySchema().sortKey().isPresent();
    }
}
