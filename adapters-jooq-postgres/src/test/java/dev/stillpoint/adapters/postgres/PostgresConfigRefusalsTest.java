package dev.stillpoint.adapters.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * A misconfigured PostgreSQL deployment, as an embedder would write it: every bad setting is refused
 * VALIDATION naming the setting [R6, D10], before any connection is tried. Found from outside (a program
 * building each bad config): a null control-plane delay and a null clock were bare NullPointerExceptions,
 * the delay's with the message "null".
 */
class PostgresConfigRefusalsTest {

    @Test
    void everyBadSettingIsAValidationErrorNamingIt() {
        PostgresConfig base = PostgresConfig.shared(new PostgresConfig.Database("jdbc:postgresql://db.invalid/x", "u", "p"));
        Map<String, Supplier<PostgresConfig>> bad = new LinkedHashMap<>();
        bad.put("the catalog database is required", () -> PostgresConfig.shared(null));
        bad.put("jdbc:postgresql:, got mysql://x", () -> PostgresConfig.shared(new PostgresConfig.Database("mysql://x", "u", "p")));
        bad.put("the control-plane delay", () -> base.withControlPlaneDelay(null));
        bad.put("control-plane delay must not be negative, got PT-1S", () -> base.withControlPlaneDelay(Duration.ofSeconds(-1)));
        bad.put("time", () -> base.withTime(null));
        bad.put("poolSize must be at least 2", () -> base.withPoolSizes(1, 1));
        bad.put("connectionTimeout must be from 250 ms to 10 minutes, got none", () -> base.withConnectionTimeout(null));
        bad.forEach((named, config) -> assertThatThrownBy(config::get)
                .as(named)
                .isInstanceOfSatisfying(StorageException.class, e -> {
                    assertThat(e.reason()).as("[D10] " + named).isEqualTo(ErrorReason.VALIDATION);
                    assertThat(e.getMessage()).as("[R6] names the setting").contains(named);
                }));
    }
}
