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
                // [E4, E6] the verified export restored into a new table, proved equal to the snapshot
                .containsPattern("Restored the export into table 'demo-orders-restored': 2,000 items in [0-9]+ ms"
                        + " \\([0-9,]+ items/s\\), ACTIVE")
                .contains("in progress: false")
                .contains("items            2,000 (the snapshot held 2,000), every item equal: yes")
                .containsPattern("index by-category +[0-9,]+ entries \\(([0-9,]+) snapshot items have category and rank\\),"
                        + " each its item once: yes")
                .contains("OK in");
        assertThat(run.err()).isEmpty();
    }

    @Test
    void aNonPositiveItemCountIsAUsageError() {
        assertThat(Cli.run("demo", "--items", "0").code()).isEqualTo(ExitCodes.USAGE);
    }
}
