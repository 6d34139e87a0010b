package dev.stillpoint.properties.errors;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.domain.error.DriverText;
import org.junit.jupiter.api.Test;

/**
 * A driver's words as every adapter quotes them in a message [R6]: the first line, bounded, never a report of
 * many lines. One rule for the four adapters, which each had a copy of their own (two unbounded).
 */
class DriverTextTest {

    @Test
    void r6_onlyTheFirstLineOfAServerReportIsQuoted() {
        assertThat(DriverText.firstLine("  ERROR: relation \"t\" does not exist\n  Position: 15\n  Where: ...  "))
                .isEqualTo("ERROR: relation \"t\" does not exist");
    }

    @Test
    void r6_aLongTextIsCutAtItsBound() {
        String quoted = DriverText.firstLine("x".repeat(2_000));
        assertThat(quoted).hasSize(DriverText.MAX_CHARS + 3).endsWith("...");
    }

    @Test
    void r6_noTextIsSaidToBeNone() {
        assertThat(DriverText.firstLine(null)).isEqualTo("(no message)");
        assertThat(DriverText.firstLine(" \n ")).isEqualTo("(no message)");
    }
}
