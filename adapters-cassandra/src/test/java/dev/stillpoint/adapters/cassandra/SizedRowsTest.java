package dev.stillpoint.adapters.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateTableRequest;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Reads of item text on Cassandra are paged by bytes [S7] ({@link SizedRows}): the recount and a GSI backfill
 * read every item, and the node builds a page whole. Found from outside: a restore of 200 items of 395 KB
 * wrote every item, then its completion's count asked for pages of 500 rows (79 MB) and the 256 MiB node died
 * of an OutOfMemoryError.
 */
class SizedRowsTest {

    private static final String ACCOUNT = "acct";

    @Test
    void largeItemsAreReadInPagesOfAboutTheBudgetAndEachRowOnce() {
        int items = 40;
        int padChars = 300_000;
        CassandraStorage storage = TestCassandra.open();
        try {
            String table = TestCassandra.tableName("sized");
            storage.tables().createTable(CreateTableRequest.builder(ACCOUNT, table).partitionKey("pk", ScalarType.S).build());
            for (int i = 0; i < items; i++) {
                storage.tables().putItem(ACCOUNT, table, Item.of(Map.of("pk", AttributeValue.s("k" + i),
                        "v", AttributeValue.s(Character.toString('a' + i % 26).repeat(padChars)))));
            }
            CatalogRow row = storage.catalog().require(ACCOUNT, table);

            SizedRows rows = storage.cql().readSized("reading the test's items", "item",
                    ItemStatements.selectItems(row.itemsTable()));
            Set<String> read = new HashSet<>();
            for (Row r : rows) {
                assertThat(read.add(r.getString("item"))).as("each row once").isTrue();
            }

            assertThat(read).as("every item").hasSize(items);
            long perPage = SizedRows.BUDGET.bytes() / padChars + 1;
            long fewest = 1 + (items - 16 + perPage - 1) / perPage;
            assertThat(rows.pages()).as("pages of %d rows of %d bytes, a page about %d bytes", items, padChars,
                    SizedRows.BUDGET.bytes()).isGreaterThanOrEqualTo((int) fewest);
        } finally {
            TestCassandra.dropAndClose(storage);
        }
    }
}
