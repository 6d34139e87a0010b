package dev.stillpoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The progress display [X2] on a clock the test moves (no sleeps): a bar with total, percent, rate and
 * time left that fills and never wraps; plain lines every interval when there is no terminal; nothing
 * under --quiet.
 */
class ProgressTest {

    private static final long SECOND = 1_000_000_000L;

    private final AtomicLong now = new AtomicLong(1_000 * SECOND);
    private final StringWriter text = new StringWriter();

    private Progress progress(Progress.Mode mode, long total, boolean estimate) {
        return new Progress(new PrintWriter(text, true), "restoring t", mode, total, estimate, now::get, 5 * SECOND);
    }

    private List<String> lines() {
        return text.toString().lines().toList();
    }

    @Test
    void withoutATerminalOneLineEveryIntervalWithTotalPercentRateAndTimeLeft() {
        Progress p = progress(Progress.Mode.LINES, 1_000, false);
        p.restored(100);
        now.addAndGet(4 * SECOND);
        p.restored(200);
        assertThat(text.toString()).as("nothing before the first interval").isEmpty();
        now.addAndGet(SECOND);
        p.restored(250);
        assertThat(lines()).containsExactly("stillpoint: restoring t: 250 of 1,000 items (25%), 50 items/s, 15 s left");
        now.addAndGet(SECOND);
        p.restored(300);
        assertThat(lines()).as("one line per interval, not per update").hasSize(1);
        now.addAndGet(4 * SECOND);
        p.restored(500);
        p.finished(1_000);
        assertThat(lines()).containsExactly(
                "stillpoint: restoring t: 250 of 1,000 items (25%), 50 items/s, 15 s left",
                "stillpoint: restoring t: 500 of 1,000 items (50%), 50 items/s, 10 s left",
                "stillpoint: restoring t: 1,000 of 1,000 items (100%), 100 items/s, done in 10 s");
    }

    @Test
    void shortWorkInAPipeStaysSilentAndQuietIsAlwaysSilent() {
        Progress shortWork = progress(Progress.Mode.LINES, 10, false);
        shortWork.restored(10);
        shortWork.finished(10);
        assertThat(text.toString()).isEmpty();

        Progress quiet = progress(Progress.Mode.QUIET, 1_000, false);
        for (int i = 1; i <= 10; i++) {
            now.addAndGet(10 * SECOND);
            quiet.restored(i * 100L);
        }
        quiet.finished(1_000);
        assertThat(text.toString()).isEmpty();
    }

    @Test
    void theBarFillsWithTheCountAndNeverWraps() {
        Progress p = progress(Progress.Mode.BAR, 40_000, false);
        int lastFill = -1;
        for (long done = 1_000; done <= 40_000; done += 1_000) {
            now.addAndGet(SECOND);
            p.exported(done);
            String frame = frames().get(frames().size() - 1);
            int fill = frame.indexOf(']') - frame.indexOf('[') - 1 - frame.substring(frame.indexOf('[') + 1,
                    frame.indexOf(']')).replace("=", "").length();
            assertThat(fill).as("the bar at %d of 40,000 never empties again: %s", done, frame).isGreaterThanOrEqualTo(lastFill);
            lastFill = fill;
            assertThat(frame).contains(String.format("%,d/40,000", done)).contains((int) (100 * done / 40_000) + "%")
                    .contains("1,000 items/s");
        }
        String half = frames().get(19);
        assertThat(half).as("half way: half the bar, 20 s left").contains("[" + "=".repeat(15) + ">" + " ".repeat(14) + "]")
                .contains(" 50% 20,000/40,000").endsWith("20 s left");
        p.finished(40_000);
        assertThat(text.toString()).endsWith("done in 40 s\n");
    }

    @Test
    void anEstimateIsSaidToBeOneAndPastItNoPercentIsShown() {
        Progress p = progress(Progress.Mode.LINES, 100, true);
        now.addAndGet(5 * SECOND);
        p.exported(50);
        now.addAndGet(5 * SECOND);
        p.exported(150);
        assertThat(lines()).containsExactly(
                "stillpoint: restoring t: 50 of about 100 items (50%), 10 items/s, about 5 s left",
                "stillpoint: restoring t: 150 items, 15 items/s, 10 s so far");
    }

    @Test
    void aCheckTakesTheManifestsTotalAndCloses() {
        Progress p = progress(Progress.Mode.LINES, -1, false);
        now.addAndGet(5 * SECOND);
        p.checked(30, 60);
        now.addAndGet(SECOND);
        p.checked(60, 60);
        assertThat(lines()).containsExactly(
                "stillpoint: restoring t: 30 of 60 items (50%), 6 items/s, 5 s left",
                "stillpoint: restoring t: 60 of 60 items (100%), 10 items/s, done in 6 s");
    }

    @Test
    void withoutATotalATerminalShowsACountNotAnEmptyBar() {
        Progress p = progress(Progress.Mode.BAR, -1, false);
        now.addAndGet(SECOND);
        p.exported(1);
        now.addAndGet(SECOND);
        p.exported(2_500);
        p.finished(2_500);
        assertThat(frames()).as("no bar that cannot say how full it is").noneMatch(f -> f.contains("["));
        assertThat(frames().get(0)).isEqualTo("restoring t 1 item, 1 items/s, 1 s so far");
        assertThat(text.toString()).endsWith("\rrestoring t 2,500 items, 1,250 items/s, done in 2 s\n");
    }

    private List<String> frames() {
        return List.of(text.toString().split("\r", -1)).stream().filter(s -> !s.isEmpty()).toList();
    }

    @Test
    void durationsReadAsClockTimes() {
        assertThat(Progress.duration(7)).isEqualTo("7 s");
        assertThat(Progress.duration(185)).isEqualTo("3:05");
        assertThat(Progress.duration(3723)).isEqualTo("1:02:03");
    }
}
