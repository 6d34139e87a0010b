package dev.stillpoint.properties.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.domain.snapshot.IdleLimit;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The idle limit as messages show it [L1, R6]: milliseconds below a second, seconds above, a fraction kept. */
class IdleLimitTextTest {

    @Test
    void l1_theLimitReadsAsPeopleWriteIt() {
        assertThat(new IdleLimit(Duration.ofMillis(250)).text()).isEqualTo("250 ms");
        assertThat(new IdleLimit(Duration.ofSeconds(60)).text()).isEqualTo("60 s");
        assertThat(new IdleLimit(Duration.ofMillis(2500)).text()).isEqualTo("2.5 s");
        assertThat(new IdleLimit(Duration.ofMillis(1001)).text()).isEqualTo("1.001 s");
    }
}
