package dev.stillpoint.adapters.postgres;

import static dev.stillpoint.adapters.postgres.testing.Tables.ACCOUNT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.adapters.postgres.testing.Layout;
import dev.stillpoint.adapters.postgres.testing.PgDatabases;
import dev.stillpoint.adapters.postgres.testing.Sessions;
import dev.stillpoint.adapters.postgres.testing.Tables;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.in.ItemStream;
import dev.stillpoint.ports.in.SegmentSharing;
import dev.stillpoint.ports.in.SegmentedSnapshot;
import dev.stillpoint.ports.in.StoredKeys;
import dev.stillpoint.ports.in.TableOperations;
import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.ports.out.RelationHold;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A segmented snapshot on a real PostgreSQL, both layouts [B2]: each segment's connection holds the
 * table (so DeleteTable defers until the LAST segment ends), and the key ranges of an uneven table,
 * cut from a TABLESAMPLE of its keys, are balanced. The kit's b2_* rules check the instant and the union.
 */
class PostgresSegmentsTest {

    @RegisterExtension
    static final PgDatabases databases = PgDatabases.perClass("segments");

    private static Set<String> holders(PostgresStorage storage, String table) {
        return storage.locks().holders(ACCOUNT, table).stream().map(RelationHold::holder).collect(Collectors.toSet());
    }

    // [B2, D5, P6] three segments are three readers of the table, each on its own connection: a DeleteTable
    // defers; closing the first two (the first is the exporting connection) leaves the third holding the
    // table, which still reads every item of its range; the table goes once the last segment ends.
    @ParameterizedTest
    @EnumSource(Layout.class)
    void b2_deleteTableWaitsForTheLastSegment(Layout layout) throws Exception {
        assertThat(PostgresStorage.CAPABILITIES.segments()).isEqualTo(SegmentSharing.ACROSS_CONNECTIONS);
        try (PostgresStorage storage = PostgresStorage.open(databases.undelayed(layout)
                .withPageBudget(new PageBudget(2, 1 << 20)))) {
            TableOperations tables = storage.tables();
            TableDescription d = Tables.createActive(tables, Tables.withIndexes(Tables.uniqueName("seg_holder")));
            for (int i = 0; i < 30; i++) {
                tables.putItem(ACCOUNT, d.tableName(), Tables.item("p" + i, i, "g", "l"));
            }
            SegmentedSnapshot snapshot = storage.snapshots().openTableSnapshot(ACCOUNT, d.tableName(),
                    StoredKeys.OMITTED, 3);
            try {
                assertThat(holders(storage, d.tableName())).as("[B2] one holder per segment").hasSize(3);
                assertThat(tables.deleteTable(ACCOUNT, d.tableName()).status()).isEqualTo(TableStatus.DELETING);
                snapshot.segments().get(0).close();
                snapshot.segments().get(1).close();
                assertThat(holders(storage, d.tableName()))
                        .as("[B2] the last segment still holds the table after the first two closed").hasSize(1);
                assertThat(Tables.exists(tables, d.tableName())).as("[B2] the table is there while a segment reads").isTrue();
                List<Item> rest = new ArrayList<>();
                snapshot.segments().get(2).forEachRemaining(i -> rest.add(i.item()));
                assertThat(rest).as("the last segment reads its range after the others closed").isNotEmpty();
            } finally {
                snapshot.close();
            }
            Duration gone = Tables.awaitGone(tables, d.tableName(), Duration.ofSeconds(45));
            assertThat(gone).as("table gone after the last segment's release").isLessThan(Duration.ofSeconds(5));
            assertThat(Sessions.relationsOf(databases, layout, d.tableId())).isEmpty();
        }
    }

    // [B2] balance on an uneven table: 2,700 of 3,000 items under one partition key, 300 under 300 others,
    // 1 KB each (about 430 pages, so the boundaries come from a TABLESAMPLE of about 128 of them). The
    // boundaries are cut from (pk, sk), so the hot partition is cut inside: every one of 4 segments holds
    // between half and one and a half times the mean (a histogram of pk alone would leave one segment 90%).
    @ParameterizedTest
    @EnumSource(Layout.class)
    void b2_theSegmentsOfAnUnevenTableAreBalanced(Layout layout) throws Exception {
        try (PostgresStorage storage = PostgresStorage.open(databases.undelayed(layout))) {
            TableOperations tables = storage.tables();
            TableDescription d = Tables.createActive(tables, Tables.withIndexes(Tables.uniqueName("seg_uneven")));
            String pad = "x".repeat(1000);
            for (int i = 0; i < 3000; i++) {
                String pk = i < 2700 ? "hot" : String.format("a%03d", i - 2700);
                tables.putItem(ACCOUNT, d.tableName(), Item.of(Map.of("pk", AttributeValue.s(pk),
                        "sk", AttributeValue.n(Integer.toString(i)), "g", AttributeValue.s("g"),
                        "l", AttributeValue.s("l"), "pad", AttributeValue.s(pad))));
            }
            List<Integer> sizes = new ArrayList<>();
            try (SegmentedSnapshot snapshot = storage.snapshots().openTableSnapshot(ACCOUNT, d.tableName(),
                    StoredKeys.OMITTED, 4)) {
                for (ItemStream segment : snapshot.segments()) {
                    int[] n = {0};
                    segment.forEachRemaining(i -> n[0]++);
                    sizes.add(n[0]);
                }
            }
            System.out.println("[B2] PostgreSQL " + layout + ": 3,000 items, 90% under one pk, 4 segments of "
                    + sizes + " items");
            assertThat(sizes.stream().mapToInt(Integer::intValue).sum()).isEqualTo(3000);
            assertThat(sizes).as("[B2] every segment within half and one and a half times the mean (750)")
                    .allSatisfy(n -> assertThat(n).isBetween(375, 1125));
            Tables.awaitGone(tables, tables.deleteTable(ACCOUNT, d.tableName()).tableName(), Duration.ofSeconds(45));
        }
    }
}
