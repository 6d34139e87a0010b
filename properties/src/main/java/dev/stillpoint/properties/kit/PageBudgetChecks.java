package dev.stillpoint.properties.kit;

import static dev.stillpoint.properties.kit.KitSupport.ACCOUNT;
import static dev.stillpoint.properties.kit.KitSupport.ACTIVE_DEADLINE;

import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.in.StoredItem;
import dev.stillpoint.ports.in.TableOperations;
import dev.stillpoint.ports.in.TableSnapshot;
import dev.stillpoint.ports.out.PageBudget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.assertj.core.api.SoftAssertions;

/**
 * S7: "Pages are bounded by rows AND bytes (a page holds at most the byte budget plus one item)".
 * Every page the stream fetched is seen through {@link KitHooks#pages()} (the shared lease reports
 * each page, whatever the backend), and measured in the unit the budget counts: the length of each
 * item's stored text ({@link StoredItem#json()}).
 */
final class PageBudgetChecks {

    static final int ITEMS = 60;
    static final long PAGE_BYTES = 2_000;
    static final int PAGE_ROWS = 7;

    private PageBudgetChecks() {
    }

    /** Items of 300 to 700 characters of payload, so a byte-bounded page holds a handful. */
    private static Item item(int i) {
        return Item.of(Map.of("pk", AttributeValue.s(String.format("k%03d", i)),
                "payload", AttributeValue.s("x".repeat(300 + (i * 37) % 400))));
    }

    /** The byte bound with a row budget far above it, then the row bound with a byte budget far above it. */
    static void s7(ConformanceFixture fixture) {
        SoftAssertions soft = new SoftAssertions();
        String table = KitSupport.uniqueName("s7");
        try (KitEngine engine = fixture.start(new KitSettings(PageBudget.DEFAULT, dev.stillpoint.ports.out.ReadObserver.NONE,
                Duration.ZERO))) {
            TableOperations tables = engine.tables();
            tables.createTable(new CreateTableRequest(ACCOUNT, table, KeySchema.hashOnly("pk"),
                    List.of(new AttributeDefinition("pk", ScalarType.S)), List.of(), List.of(), Optional.empty()));
            KitSupport.awaitStatus(tables, table, TableStatus.ACTIVE, ACTIVE_DEADLINE);
            for (int i = 0; i < ITEMS; i++) {
                tables.putItem(ACCOUNT, table, item(i));
            }
        }
        drainAndCheck(fixture, table, new PageBudget(1000, PAGE_BYTES), soft);
        drainAndCheck(fixture, table, new PageBudget(PAGE_ROWS, KitSupport.LARGE_BYTES), soft);
        soft.assertAll();
        try (KitEngine engine = fixture.start(new KitSettings(PageBudget.DEFAULT, dev.stillpoint.ports.out.ReadObserver.NONE,
                Duration.ZERO))) {
            KitSupport.bestEffortDelete(engine.tables(), table);
        }
    }

    private static void drainAndCheck(ConformanceFixture fixture, String table, PageBudget budget, SoftAssertions soft) {
        KitHooks hooks = new KitHooks();
        try (KitEngine engine = fixture.start(new KitSettings(budget, hooks, Duration.ZERO));
             TableSnapshot snapshot = engine.snapshots().openTableSnapshot(ACCOUNT, table)) {
            List<StoredItem> items = Drain.all(snapshot.items(), "S7 drain at " + budget);
            soft.assertThat(items).as("[S7] at %s: every item of the table", budget).hasSize(ITEMS);
            List<List<Integer>> pages = hooks.pages();
            soft.assertThat(pages.stream().mapToInt(List::size).sum())
                    .as("[S7] at %s: the pages reported hold every item delivered", budget).isEqualTo(ITEMS);
            List<String> over = new ArrayList<>();
            for (int p = 0; p < pages.size(); p++) {
                List<Integer> page = pages.get(p);
                long beforeLast = page.stream().limit(Math.max(0, page.size() - 1)).mapToLong(Integer::longValue).sum();
                if (page.size() > budget.rows() || beforeLast >= budget.bytes()) {
                    over.add("page " + p + ": " + page.size() + " items, " + beforeLast + " bytes before its last item");
                }
            }
            soft.assertThat(over)
                    .as("[S7] at %s: pages are bounded by rows AND bytes (a page holds at most %d items and at most "
                            + "the byte budget plus one item)", budget, budget.rows())
                    .isEmpty();
        }
    }
}
