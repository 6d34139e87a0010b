package dev.stillpoint.adapters.sqlite.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.adapters.sqlite.SqliteConfig;
import dev.stillpoint.adapters.sqlite.SqliteStorage;
import dev.stillpoint.adapters.sqlite.testing.TestDatabases;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.ChangeLog;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.in.Storage;
import dev.stillpoint.ports.in.TableSnapshot;
import dev.stillpoint.ports.out.TimeSource;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * [I4] The change log's retention on SQLite, with a manual clock: the control plane's trim cuts the log at
 * its newest checkpoint older than the retention; a marker from before the cut is refused by name, a
 * marker younger than the retention is answered with every change after it.
 */
class SqliteChangeLogRetentionTest {

    private static final String ACCOUNT = "000000000031";

    @Test
    void i4_aMarkerOlderThanTheRetainedLogIsRefusedAndAYoungerOneIsAnsweredWhole() {
        ManualTime clock = new ManualTime(Instant.parse("2026-12-03T00:00:00Z"));
        try (SqliteStorage storage = SqliteStorage.open(SqliteConfig.file(TestDatabases.newFile("retention"))
                .withControlPlaneDelay(Duration.ZERO).withTime(clock).withChangeLogRetention(Duration.ofHours(1)))) {
            String table = "retained";
            storage.tables().createTable(CreateTableRequest.builder(ACCOUNT, table).partitionKey("pk", ScalarType.S)
                    .changeLog(ChangeLog.NEW_IMAGE).build());
            awaitActive(storage, table);
            put(storage, table, "k1");
            String old = marker(storage, table);
            put(storage, table, "k0"); // after old, before m0: a cut at m0 deletes its change
            storage.trimChangeLogs(); // checkpoint m0 at T0
            clock.advance(Duration.ofMinutes(30));
            storage.trimChangeLogs(); // checkpoint m1 at T0 + 30 min; nothing older than an hour to cut to
            assertThat(keys(storage, table, old)).as("[I4] a marker 30 min old, inside the hour kept, is answered")
                    .containsExactly("k0");
            put(storage, table, "k2");
            String mid = marker(storage, table);
            put(storage, table, "k3");

            clock.advance(Duration.ofMinutes(31));
            // Cut at the newest checkpoint at T0 (a pass's may follow m0): every one was written before the trim
            // at T0 + 30 min returned, which was before mid was taken; old was taken before m0.
            storage.trimChangeLogs();
            assertThatThrownBy(() -> storage.changeLog().changesSince(ACCOUNT, table, old))
                    .as("[I4] a marker from before the cut").isInstanceOf(StorageException.class)
                    .hasMessageContaining("'" + old + "'").hasMessageContaining("older than the change log")
                    .satisfies(e -> assertThat(((StorageException) e).reason()).isEqualTo(ErrorReason.VALIDATION));
            assertThat(keys(storage, table, mid)).as("[I4] a marker 31 min old keeps every change after it")
                    .containsExactly("k3");
        }
    }

    private static List<String> keys(Storage storage, String table, String marker) {
        return storage.changeLog().changesSince(ACCOUNT, table, marker).changes().stream()
                .map(c -> ((AttributeValue.S) c.keys().get("pk")).value()).toList();
    }

    private static void put(Storage storage, String table, String key) {
        storage.tables().putItem(ACCOUNT, table, Item.of(Map.of("pk", AttributeValue.s(key), "v", AttributeValue.s("v"))));
    }

    private static String marker(Storage storage, String table) {
        try (TableSnapshot s = storage.snapshots().openTableSnapshot(ACCOUNT, table)) {
            return s.info().marker();
        }
    }

    private static void awaitActive(Storage storage, String table) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (storage.tables().describeTable(ACCOUNT, table).status() != TableStatus.ACTIVE) {
            assertThat(System.nanoTime()).as("table ACTIVE within 30 s").isLessThan(deadline);
            Thread.onSpinWait();
        }
    }

    /** A clock that moves only when the test moves it. */
    static final class ManualTime implements TimeSource {
        private volatile Instant now;
        private volatile long nanos;

        ManualTime(Instant start) {
            now = start;
        }

        synchronized void advance(Duration by) {
            now = now.plus(by);
            nanos += by.toNanos();
        }

        @Override
        public Instant now() {
            return now;
        }

        @Override
        public long monotonicNanos() {
            return nanos;
        }
    }
}
