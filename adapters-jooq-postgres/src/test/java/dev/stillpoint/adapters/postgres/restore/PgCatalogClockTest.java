package dev.stillpoint.adapters.postgres.restore;

import static dev.stillpoint.properties.fixtures.RestoreFixtures.ACCOUNT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.adapters.postgres.PostgresStorage;
import dev.stillpoint.adapters.postgres.testing.Layout;
import dev.stillpoint.adapters.postgres.testing.PgDatabases;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.table.RestoreOrigin;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.in.RestoreLoad;
import dev.stillpoint.ports.out.TimeSource;
import dev.stillpoint.properties.fixtures.RestoreFixtures;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * [E5] Processes on hosts whose clocks disagree judge a restore's stamp by the catalog server's clock. Found
 * from outside: a second process whose clock ran 120 s ahead opened the catalog while a CLI restore of 300,000
 * items was loading; its startup pass took the live restore (stamp 60 s ahead of the restoring process's clock)
 * for dead and removed it, and the restore failed (exit 14), where the same process without the skew was refused
 * ("a restore is filling it"). Here the other process's clock runs ten minutes ahead, far past the 60 s idle limit.
 */
class PgCatalogClockTest {

    private static final RestoreOrigin ORIGIN = new RestoreOrigin(Optional.empty(), Instant.parse("2026-12-01T00:00:00Z"));
    private static final Duration SKEW = Duration.ofMinutes(10);

    @RegisterExtension
    static final PgDatabases databases = PgDatabases.perClass("clock");

    /** The system's clock, running {@link #SKEW} ahead: the clock of another host. */
    private static final TimeSource AHEAD = new TimeSource() {
        @Override
        public Instant now() {
            return Instant.now().plus(SKEW);
        }

        @Override
        public long monotonicNanos() {
            return System.nanoTime();
        }
    };

    @ParameterizedTest
    @EnumSource(Layout.class)
    void e5_aProcessWhoseClockRunsAheadLeavesALiveRestoreAlone(Layout layout) throws Exception {
        String name = "clocked_" + layout.name().toLowerCase();
        try (PostgresStorage restoring = PostgresStorage.open(databases.undelayed(layout))) {
            RestoreLoad load = restoring.restores().begin(RestoreFixtures.definition(name), ORIGIN);
            load.write(RestoreFixtures.items(0, 10));
            try (PostgresStorage ahead = PostgresStorage.open(databases.undelayed(layout).withTime(AHEAD))) {
                assertThat(ahead.awaitStartupRecovery(Duration.ofSeconds(30))).as("the other process's startup pass ran")
                        .isTrue();
                assertThat(ahead.tables().describeTable(ACCOUNT, name).status())
                        .as("its startup pass, which removes dead restores, left the live one").isEqualTo(TableStatus.CREATING);
                assertThatThrownBy(() -> ahead.tables().deleteTable(ACCOUNT, name)).as("a live restore, by the server's clock")
                        .isInstanceOfSatisfying(StorageException.class, e -> {
                            assertThat(e.reason()).isEqualTo(ErrorReason.RESOURCE_IN_USE);
                            assertThat(e.getMessage()).contains("a restore is filling it");
                        });
            }
            load.write(RestoreFixtures.items(10, 20));
            assertThat(load.complete().status()).as("the restore completes").isEqualTo(TableStatus.ACTIVE);
        }
    }
}
