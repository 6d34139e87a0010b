package dev.stillpoint.properties.table;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.domain.table.RestoreOrigin;
import dev.stillpoint.domain.table.RestoreSummary;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A restored table's RestoreSummary carries its origin's backup, source table and time [E4]. */
class RestoreOriginTest {

    @Test
    void e4_theSummaryCarriesTheOriginAndWhetherTheRestoreRuns() {
        Instant at = Instant.parse("2026-12-01T10:00:00Z");
        RestoreOrigin origin = new RestoreOrigin(Optional.of("arn:backup"), Optional.of("arn:table"), at);
        assertThat(origin.summary(true)).isEqualTo(new RestoreSummary(Optional.of("arn:backup"), Optional.of("arn:table"), at, true));
        assertThat(origin.summary(false).restoreInProgress()).isFalse();
        assertThat(new RestoreOrigin(Optional.of("arn:table"), at).summary(false).sourceBackupArn()).isEmpty();
    }
}
