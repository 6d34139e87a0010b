package dev.stillpoint.properties.kit;

import static dev.stillpoint.properties.kit.KitSupport.ACCOUNT;
import static dev.stillpoint.properties.kit.KitSupport.ACTIVE_DEADLINE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.in.TableSnapshot;
import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.ports.out.ReadObserver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * K6: refusals. A missing table is TableNotFound; a table that is not ACTIVE is refused with a
 * StorageException of another reason [S6]. Neither refusal may keep its permit [D6, D7]: after more
 * refusals than the engine has permits, the engine still opens as many snapshots at once as before.
 */
final class RefusalChecks {

    /** The most snapshots the kit holds at once to find the engine's bound. */
    static final int PROBE_LIMIT = 32;
    /** How long a table stays CREATING in the non-ACTIVE check: longer than any run. */
    static final Duration STAYS_CREATING = Duration.ofHours(1);

    private RefusalChecks() {
    }

    private static CreateTableRequest hashOnly(String table) {
        return new CreateTableRequest(ACCOUNT, table, KeySchema.hashOnly("pk"),
                List.of(new AttributeDefinition("pk", ScalarType.S)), List.of(), List.of(), Optional.empty());
    }

    private static String activeTable(KitEngine engine) {
        String table = KitSupport.uniqueName("k6_active");
        engine.tables().createTable(hashOnly(table));
        KitSupport.awaitStatus(engine.tables(), table, TableStatus.ACTIVE, ACTIVE_DEADLINE);
        engine.tables().putItem(ACCOUNT, table, Item.of(Map.of("pk", AttributeValue.s("one"))));
        return table;
    }

    static void k6Missing(ConformanceFixture fixture) {
        try (KitEngine engine = fixture.start(new KitSettings(PageBudget.DEFAULT, ReadObserver.NONE, Duration.ZERO))) {
            String active = activeTable(engine);
            String missing = KitSupport.uniqueName("k6_missing");
            Runnable refusal = () -> engine.snapshots().openTableSnapshot(ACCOUNT, missing).close();
            Throwable thrown = catchThrowable(refusal::run);
            assertThat(thrown).as("[K6] opening a missing table is refused with a StorageException")
                    .isInstanceOf(StorageException.class);
            assertThat(((StorageException) thrown).reason()).as("[K6] a missing table is TableNotFound: %s", thrown)
                    .isEqualTo(ErrorReason.TABLE_NOT_FOUND);
            assertRefusalsKeepNoPermit(engine, active, refusal, "a missing table");
            KitSupport.bestEffortDelete(engine.tables(), active);
        }
    }

    static void k6NotActive(ConformanceFixture fixture) {
        try (KitEngine engine = fixture.start(new KitSettings(PageBudget.DEFAULT, ReadObserver.NONE, Duration.ZERO))) {
            String active = activeTable(engine);
            String creating = KitSupport.uniqueName("k6_creating");
            try (KitEngine slow = fixture.start(new KitSettings(PageBudget.DEFAULT, ReadObserver.NONE, STAYS_CREATING))) {
                TableDescription created = slow.tables().createTable(hashOnly(creating));
                assertThat(created.status()).as("[K6] a table created with a 1 h control-plane delay").isEqualTo(TableStatus.CREATING);
                assertThat(slow.tables().describeTable(ACCOUNT, active).status())
                        .as("[K6] engines of one fixture share one database: the second engine sees the first's "
                                + "ACTIVE table (ConformanceFixture.start)")
                        .isEqualTo(TableStatus.ACTIVE);
                Runnable refusal = () -> slow.snapshots().openTableSnapshot(ACCOUNT, creating).close();
                Throwable thrown = catchThrowable(refusal::run);
                assertThat(slow.tables().describeTable(ACCOUNT, creating).status())
                        .as("[K6] the table is still CREATING when refused").isEqualTo(TableStatus.CREATING);
                assertThat(thrown).as("[K6] opening a CREATING table is refused with a StorageException")
                        .isInstanceOf(StorageException.class);
                assertThat(((StorageException) thrown).reason())
                        .as("[K6] a table that is not ACTIVE is refused, not reported missing: %s", thrown)
                        .isNotIn(ErrorReason.TABLE_NOT_FOUND, ErrorReason.LIMIT_EXCEEDED);
                assertRefusalsKeepNoPermit(slow, active, refusal, "a CREATING table");
            }
            KitSupport.bestEffortDelete(engine.tables(), active);
        }
    }

    /**
     * Finds the engine's bound by holding snapshots until LimitExceeded (at most {@link #PROBE_LIMIT}),
     * then refuses one more time than that, then holds as many snapshots at once again, and finally
     * opens and closes that many and one more in a row. A refusal that kept its permit shows up as
     * LimitExceeded in either step.
     */
    private static void assertRefusalsKeepNoPermit(KitEngine engine, String active, Runnable refusal, String what) {
        int bound = holdUntilRefused(engine, active, "[K6] finding the engine's snapshot bound before refusing " + what);
        for (int i = 0; i <= bound; i++) {
            Throwable again = catchThrowable(refusal::run);
            assertThat(again).as("[K6] refusal %d of %d of %s is still a StorageException", i + 1, bound + 1, what)
                    .isInstanceOf(StorageException.class);
            assertThat(((StorageException) again).reason())
                    .as("[K6] refusal %d of %d of %s: a LimitExceeded here means an earlier refusal kept its permit: %s",
                            i + 1, bound + 1, what, again)
                    .isNotEqualTo(ErrorReason.LIMIT_EXCEEDED);
        }
        List<TableSnapshot> held = new ArrayList<>();
        try {
            for (int i = 0; i < bound; i++) {
                Throwable failed = catchThrowable(() -> held.add(engine.snapshots().openTableSnapshot(ACCOUNT, active)));
                assertThat(failed)
                        .as("[K6] after %d refusals of %s, snapshot %d of the %d the engine held at once before still "
                                + "opens (a refusal kept its permit)", bound + 1, what, i + 1, bound)
                        .isNull();
            }
        } finally {
            held.forEach(TableSnapshot::close);
        }
        for (int i = 0; i <= bound; i++) {
            try (TableSnapshot s = engine.snapshots().openTableSnapshot(ACCOUNT, active)) {
                Drain.all(s.items(), "K6 open " + (i + 1) + " in a row after refusing " + what);
            }
        }
    }

    private static int holdUntilRefused(KitEngine engine, String active, String stage) {
        List<TableSnapshot> held = new ArrayList<>();
        try {
            while (held.size() < PROBE_LIMIT) {
                try {
                    held.add(engine.snapshots().openTableSnapshot(ACCOUNT, active));
                } catch (StorageException e) {
                    if (e.reason() != ErrorReason.LIMIT_EXCEEDED) {
                        throw e;
                    }
                    break;
                }
            }
            assertThat(held).as(stage + ": at least one snapshot opens").isNotEmpty();
            return held.size();
        } finally {
            held.forEach(TableSnapshot::close);
        }
    }
}
