package dev.stillpoint.adapters.postgres.engine;

import static dev.stillpoint.adapters.postgres.testing.Tables.ACCOUNT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.adapters.postgres.PostgresConfig;
import dev.stillpoint.adapters.postgres.PostgresStorage;
import dev.stillpoint.adapters.postgres.testing.DaemonThreads;
import dev.stillpoint.adapters.postgres.testing.Layout;
import dev.stillpoint.adapters.postgres.testing.PgDatabases;
import dev.stillpoint.adapters.postgres.testing.Tables;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateGsiRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.Projection;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.in.StoredItem;
import dev.stillpoint.ports.in.StoredKeys;
import dev.stillpoint.ports.in.TableOperations;
import dev.stillpoint.ports.out.BegunRead;
import dev.stillpoint.ports.out.DefinedRead;
import dev.stillpoint.ports.out.Page;
import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.ports.out.PageSource;
import dev.stillpoint.ports.out.PinnedRead;
import dev.stillpoint.ports.out.ReadObserver;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The shared layout's open reads its definition as the first statement of its REPEATABLE READ
 * transaction, on the one connection that then reads the items [P1, S1]. Driven through the read
 * port's steps on an engine's pools of its own (no storage, no poller), so the pool's count of
 * borrowed connections is the open's alone.
 */
class PostgresSnapshotInstantTest {

    private static final String NEW_GSI = "by_g";
    private static final String AFTER = "written_after_the_update";
    private static final long STEP_SECONDS = 30;

    @RegisterExtension
    static final PgDatabases databases = PgDatabases.perClass("instant");
    private static ExecutorService threads;

    @BeforeAll
    static void setUp() {
        threads = DaemonThreads.named("snapshot-instant-test");
    }

    @AfterAll
    static void tearDown() {
        threads.shutdownNow();
    }

    /** What the open saw, and how many connections it held at the pause and at its first page. */
    private record Opened(TableDescription definition, List<StoredItem> firstPage, int borrowedAtFirstPage) {
    }

    // S1: "definition and items describe one instant"; P1: "Shared layout: one connection, one REPEATABLE
    // READ READ ONLY transaction whose first statement reads the catalog row." The open is held on a
    // latch right after its definition is read (PostgresSnapshots' definitionRead seam); in that window
    // another engine adds a GSI (UpdateTable commits) and then puts an item. The definition, read before
    // the window, has no GSI, so the items, from the same instant, cannot hold the item put after the
    // UpdateTable. A definition read on a second pooled connection in auto-commit would leave the
    // transaction's snapshot to the next statement, after the window: the first page would hold it.
    // And the open holds exactly one pooled connection, at the pause and at its first page.
    @Test
    void s1_theDefinitionAndTheFirstPageAreOfOneInstantUnderAConcurrentUpdateTable() throws Exception {
        PostgresConfig config = databases.undelayed(Layout.SHARED);
        try (PostgresStorage writer = PostgresStorage.open(config); Pools pools = new Pools(config)) {
            TableOperations tables = writer.tables();
            String table = Tables.uniqueName("instant");
            Tables.createActive(tables, Tables.hashOnly(table));
            for (int i = 0; i < 5; i++) {
                tables.putItem(ACCOUNT, table, Tables.hashItem("before" + i));
            }

            CountDownLatch reached = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            int[] borrowedAtPause = {-1};
            PostgresSnapshots reads = new PostgresSnapshots(pools, () -> {
                borrowedAtPause[0] = pools.borrowed();
                reached.countDown();
                try {
                    if (!release.await(STEP_SECONDS, TimeUnit.SECONDS)) {
                        throw new AssertionError("the test did not release the paused open within " + STEP_SECONDS + " s");
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError("interrupted while paused", e);
                }
            });

            Future<Opened> opening = threads.submit(() -> {
                BegunRead begun = reads.begin(ACCOUNT, table, ReadObserver.NONE);
                DefinedRead defined = begun.readDefinition();
                PinnedRead pinned = defined.pin();
                try (PageSource pages = pinned.pages(StoredKeys.OMITTED)) {
                    Page first = pages.nextPage(new PageBudget(1000, 1 << 20));
                    return new Opened(defined.description(), first.items(), pools.borrowed());
                }
            });
            try {
                assertThat(reached.await(STEP_SECONDS, TimeUnit.SECONDS))
                        .as("the open reached the pause after its definition read").isTrue();
                tables.addGlobalSecondaryIndex(ACCOUNT, table, CreateGsiRequest.of(
                        GlobalSecondaryIndex.creating(NEW_GSI, KeySchema.hashOnly("g"), Projection.all()),
                        new AttributeDefinition("g", ScalarType.S)));
                tables.putItem(ACCOUNT, table, Tables.hashItem(AFTER));
            } finally {
                release.countDown();
            }
            Opened opened = opening.get(STEP_SECONDS, TimeUnit.SECONDS);

            // Soft: a read on a second connection may show in the items, in the counts, or in both.
            SoftAssertions soft = new SoftAssertions();
            soft.assertThat(opened.firstPage().stream().map(StoredItem::json).filter(j -> j.contains(AFTER)).toList())
                    .as("[S1] definition and items of one instant: a definition without %s has no item put after the"
                            + " UpdateTable that added it", NEW_GSI)
                    .isEmpty();
            soft.assertThat(opened.definition().gsi(NEW_GSI))
                    .as("[S1] the definition was read before the UpdateTable committed: no %s", NEW_GSI).isEmpty();
            soft.assertThat(borrowedAtPause[0]).as("[P1] the open holds one pooled connection once its definition is read")
                    .isEqualTo(1);
            soft.assertThat(opened.borrowedAtFirstPage()).as("[P1] the open holds one pooled connection at its first page")
                    .isEqualTo(1);
            soft.assertThat(opened.firstPage().stream().map(StoredItem::json).filter(j -> j.contains("before")).count())
                    .as("[S1] the first page holds every item put before the open").isEqualTo(5);
            soft.assertAll();
            assertThat(pools.borrowed()).as("[P1] the closed read gave its connection back").isZero();
        }
    }
}
