package dev.stillpoint.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The temporary copy of an incremental export's checked changes [I3]: what is read back is exactly what was
 * checked, whatever characters the items hold (a tab or a line break inside a value would cut a naive
 * line format), and the file is gone once closed, written to the end or not.
 */
class ChangeSpoolTest {

    private static Item item(String pk, AttributeValue v) {
        Map<String, AttributeValue> values = new LinkedHashMap<>();
        values.put("pk", AttributeValue.s(pk));
        values.put("v", v);
        return Item.of(values);
    }

    private static Item key(String pk) {
        return Item.of(Map.of("pk", AttributeValue.s(pk)));
    }

    @Test
    void i3_theChangesReadBackAreTheChangesWrittenWhateverTheyHold() {
        List<CheckedChanges.Change> written = List.of(
                new CheckedChanges.Change(key("a\tb"), Optional.of(item("a\tb", AttributeValue.s("line\none\r\u2028\u0000")))),
                new CheckedChanges.Change(key("gone\n"), Optional.empty()),
                new CheckedChanges.Change(key("\uD83D\uDE00"), Optional.of(item("\uD83D\uDE00",
                        AttributeValue.b(new byte[] {0, '\t', '\n', (byte) 0xff})))),
                new CheckedChanges.Change(key("n"), Optional.of(item("n", AttributeValue.n("-1.50E+3")))));
        List<CheckedChanges.Change> read = new ArrayList<>();
        try (ChangeSpool spool = new ChangeSpool()) {
            written.forEach(c -> spool.add(c.keys(), c.newImage()));
            spool.finished().forEach(read::add);
            assertThat(spool.puts()).isEqualTo(3);
            assertThat(spool.tombstones()).isEqualTo(1);
            List<CheckedChanges.Change> again = new ArrayList<>();
            spool.forEach(again::add);
            assertThat(again).as("read back as often as asked").isEqualTo(read);
        }
        assertThat(read).as("in the order written, each exactly as written").isEqualTo(written);
    }

    @Test
    void i3_theFileIsGoneOnceClosedWrittenToTheEndOrNot() throws Exception {
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        List<Path> before = spools(tmp);
        ChangeSpool unfinished = new ChangeSpool();
        unfinished.add(key("x"), Optional.empty());
        assertThat(spools(tmp)).as("the copy is a file while open").hasSize(before.size() + 1);
        assertThatThrownBy(() -> unfinished.forEach(c -> { }))
                .as("not read back before it is finished").isInstanceOf(IllegalStateException.class);
        unfinished.close();
        assertThat(spools(tmp)).as("closed unfinished").isEqualTo(before);

        ChangeSpool finished = new ChangeSpool();
        finished.add(key("y"), Optional.empty());
        finished.finished().close();
        assertThat(spools(tmp)).as("closed finished").isEqualTo(before);
    }

    private static List<Path> spools(Path tmp) throws java.io.IOException {
        try (java.util.stream.Stream<Path> files = Files.list(tmp)) {
            return files.filter(f -> f.getFileName().toString().startsWith("stillpoint-changes-")).sorted().toList();
        }
    }
}
