package dev.stillpoint.adapters.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.ports.out.PageBudget;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A misconfigured deployment, as an embedder would write it: every bad setting is refused VALIDATION naming
 * the setting and the value [R6, D10], before a file is made. Found from outside (a program opening
 * {@code SqliteStorage} with each bad setting): a null clock, hook, budget, schedule, file or delay was a
 * bare NullPointerException (two with the message "null"), and a zero-row page budget an
 * IllegalArgumentException.
 */
class SqliteConfigRefusalsTest {

    @TempDir
    Path dir;

    @Test
    void everyBadSettingIsAValidationErrorNamingItAndNothingIsCreated() {
        Path file = dir.resolve("never.db");
        SqliteConfig base = SqliteConfig.file(file);
        Map<String, Supplier<SqliteConfig>> bad = new LinkedHashMap<>();
        bad.put("the database file", () -> SqliteConfig.file(null));
        bad.put("the control-plane delay", () -> base.withControlPlaneDelay(null));
        bad.put("control-plane delay must not be negative, got PT-1S", () -> base.withControlPlaneDelay(Duration.ofSeconds(-1)));
        bad.put("time", () -> base.withTime(null));
        bad.put("observer", () -> base.withObserver(null));
        bad.put("pageBudget", () -> base.withPageBudget(null));
        bad.put("pollerSchedule", () -> base.withPollerSchedule(null));
        bad.put("snapshotIdleLimit", () -> base.withSnapshotIdleLimit(null));
        bad.put("restoreIdleLimit", () -> base.withRestoreIdleLimit(null));
        bad.put("changeLogRetention", () -> base.withChangeLogRetention(null));
        bad.put("page rows must be at least 1, got 0", () -> base.withPageBudget(new PageBudget(0, 1)));
        bad.put("page bytes must be at least 1, got -1", () -> base.withPageBudget(new PageBudget(1, -1)));
        bad.put("snapshotPermits must be at least 1, got 0", () -> base.withSnapshotPermits(0));
        bad.put("readConnections must be at least 1, got 0", () -> base.withPool(0, 0));
        bad.put("snapshotPermits 5 exceeds half of the 2 read connections", () -> base.withPool(2, 5));
        bad.put("busyTimeout must be zero or more, got PT-1S", () -> new SqliteConfig(base.file(),
                base.readConnections(), base.snapshotPermits(), Duration.ofSeconds(-1), base.controlPlaneDelay(),
                base.coreSettings()));
        bad.forEach((named, config) -> assertThatThrownBy(() -> SqliteStorage.open(config.get()).close())
                .as(named)
                .isInstanceOfSatisfying(StorageException.class, e -> {
                    assertThat(e.reason()).as("[D10] " + named).isEqualTo(ErrorReason.VALIDATION);
                    assertThat(e.getMessage()).as("[R6] names the setting").contains(named);
                }));
        assertThat(Files.exists(file)).as("a refused configuration creates no file").isFalse();
    }
}
