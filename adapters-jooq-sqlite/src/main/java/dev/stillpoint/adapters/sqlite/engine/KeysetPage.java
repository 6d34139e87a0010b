package dev.stillpoint.adapters.sqlite.engine;

import dev.stillpoint.ports.in.StoredItem;
import dev.stillpoint.ports.in.StoredKeys;
import dev.stillpoint.ports.out.Page;
import dev.stillpoint.ports.out.PageBudget;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One keyset page of a snapshot or of one of its segments [Q3, B2]: the rows of a bound page query
 * ({@code pk, sk, item}, in key order) until the budget is full, and where the next page starts.
 *
 * @param page the page
 * @param next the key of the row that filled the page, where the next one starts; empty when the page had
 *             room left, so nothing is behind it
 */
record KeysetPage(Page page, Optional<byte[][]> next) {

    /** Runs {@code query} (bound) and reads its rows; the items carry their key columns when {@code storedKeys} says so [E1]. */
    static KeysetPage read(PreparedStatement query, PageBudget budget, StoredKeys storedKeys) throws SQLException {
        List<StoredItem> items = new ArrayList<>(Math.min(budget.rows(), 1024));
        long bytes = 0;
        byte[][] next = null;
        try (ResultSet rs = query.executeQuery()) {
            while (rs.next()) {
                StoredJson row = storedKeys == StoredKeys.INCLUDED ? StoredJson.read(rs, 3, 1, 2) : StoredJson.read(rs, 3);
                bytes += row.size();
                items.add(row);
                if (budget.full(items.size(), bytes)) {
                    next = new byte[][] {rs.getBytes(1), rs.getBytes(2)};
                    break;
                }
            }
        }
        // A page cut short by rows or bytes may have more behind it; one with room left is the end.
        return new KeysetPage(new Page(items, !budget.full(items.size(), bytes)), Optional.ofNullable(next));
    }
}
