package dev.stillpoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The main job proves what it says, on a smaller table. */
class DemoCommandTest {

    @Test
    void theDemoExportsWhileAWriterRunsAndFindsNothingLeakedInOrLost() {
        Cli.Run run = Cli.run("demo", "--items", "2000");

        assertThat(run.code()).as(run.out() + run.err()).isZero();
        assertThat(run.out())
                .contains("items exported   2,000")
                .contains("leaked in: 0")
                .contains("lost: 0")
                .contains("duplicates: 0")
                .contains("key-ordered: yes")
                .contains("sha256: matches")
                .contains("with every one of the")
                .containsPattern("writer +[1-9][0-9,]* writes committed during the export")
                .contains("OK in");
        assertThat(run.err()).isEmpty();
    }

    @Test
    void aNonPositiveItemCountIsAUsageError() {
        assertThat(Cli.run("demo", "--items", "0").code()).isEqualTo(ExitCodes.USAGE);
    }
}
