package dev.stillpoint.properties.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.lifecycle.RestoreIdleLimit;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The setting {@code restoreIdleLimit} [E5]: 1 s to 1 day, refused naming itself and the value. */
class RestoreIdleLimitTest {

    @Test
    void e5_aLimitOutsideItsRangeIsRefusedNamingTheSettingAndTheValue() {
        for (Duration bad : new Duration[] {Duration.ofMillis(999), Duration.ZERO, Duration.ofSeconds(-1),
                Duration.ofDays(1).plusMillis(1)}) {
            assertThatThrownBy(() -> new RestoreIdleLimit(bad))
                    .isInstanceOfSatisfying(StorageException.class, e -> {
                        assertThat(e.reason()).isEqualTo(ErrorReason.VALIDATION);
                        assertThat(e.getMessage()).contains("restoreIdleLimit").contains(bad.toMillis() + " ms");
                    });
        }
        assertThatThrownBy(() -> new RestoreIdleLimit(null)).hasMessageContaining("restoreIdleLimit is required");
    }

    @Test
    void e5_theBoundsAreAcceptedAndARunningRestoreRenewsEveryQuarterLimit() {
        assertThat(new RestoreIdleLimit(Duration.ofSeconds(1)).renewEvery()).isEqualTo(Duration.ofMillis(250));
        assertThat(new RestoreIdleLimit(Duration.ofDays(1)).duration()).isEqualTo(Duration.ofDays(1));
        assertThat(RestoreIdleLimit.DEFAULT.duration()).isEqualTo(Duration.ofSeconds(60));
    }
}
