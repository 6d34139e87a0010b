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

    /**
     * libpq's URI form, user and password before the host, as a user copies it from psql: pgjdbc reads no
     * such thing (pgjdbc issues 1346 and 1474, "will not fix") and took "sp:secret@127.0.0.1" for a host name,
     * so the opening failed Transient ("unreachable") after the whole connection timeout, retried by an
     * embedder for ever. Found from outside through the CLI (5 s, ServiceUnavailable). Now refused at once,
     * and no refusal, nor the settings' text, carries the password [L3].
     */
    @Test
    void aUserAndPasswordBeforeTheHostAreRefusedWithoutPrintingThePassword() {
        Map<String, String> urls = new LinkedHashMap<>();
        urls.put("jdbc:postgresql://sp:Pw-never-printed-1@127.0.0.1:5432/spdb", "names its user and password as options");
        urls.put("jdbc:postgresql://sp@db.invalid/spdb?password=Pw-never-printed-2", "names its user and password as options");
        urls.put("postgresql://sp:Pw-never-printed-3@db.invalid/spdb", "starts with jdbc:postgresql:");
        urls.put("jdbc:mysql://db.invalid/x?user=sp&password=Pw-never-printed-4", "starts with jdbc:postgresql:");
        urls.forEach((url, named) -> assertThatThrownBy(() -> new PostgresConfig.Database(url, "sp", null))
                .as(url)
                .isInstanceOfSatisfying(StorageException.class, e -> {
                    assertThat(e.reason()).as("[D10] " + url).isEqualTo(ErrorReason.VALIDATION);
                    assertThat(e.getMessage()).as("[R6] " + url).contains(named).contains("db").doesNotContain("Pw-never");
                }));
        PostgresConfig.Database withOptions = new PostgresConfig.Database(
                "jdbc:postgresql://db.invalid/x?user=sp&password=Pw-never-printed-5", "sp", "Pw-never-printed-6");
        assertThat(withOptions.toString()).contains("db.invalid/x").doesNotContain("Pw-never");
    }
}
