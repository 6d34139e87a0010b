package dev.stillpoint.adapters.postgres.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The COPY text buffer of a bulk load [B1]: its escapes, and the memory it keeps between COPYs. A pure
 * test of the buffer (no server): what the server makes of the text is {@code PostgresBulkRestoreTest}'s.
 */
class CopyTextTest {

    // COPY's text format reads a backslash as an escape: a backslash, tab, newline and carriage return in a
    // value are escaped, every other character is itself in UTF-8, and a row ends with a newline.
    @Test
    void aRowIsItsColumnsEscapedForCopysTextFormat() {
        CopyText text = new CopyText();
        text.keyColumn("a\tb");
        text.lastColumn("x\\y\nz\r\u20ac");

        assertThat(new String(text.bytes(), 0, text.size(), StandardCharsets.UTF_8))
                .isEqualTo("a\\tb\tx\\\\y\\nz\\r\u20ac\n");
        assertThat(text.rows()).isEqualTo(1);
    }

    // A relation whose rows once filled most of the load's budget does not keep that buffer: a table with many
    // indexes, each of them large at some time, would otherwise keep a budget's worth per index.
    @Test
    void aBufferGrownPastOneMiBIsGivenBackWhenCleared() {
        CopyText text = new CopyText();
        text.lastColumn("v".repeat(3 << 20));
        assertThat(text.bytes().length).as("the buffer while it holds 3 MiB").isGreaterThanOrEqualTo(3 << 20);

        text.clear();

        assertThat(text.bytes().length).as("the buffer after the rows were sent").isLessThanOrEqualTo(1 << 20);
        assertThat(text.size()).isZero();
        assertThat(text.rows()).isZero();
    }

    // A buffer that stayed small keeps its array: the next rows need no new one.
    @Test
    void aSmallBufferIsKeptWhenCleared() {
        CopyText text = new CopyText();
        text.lastColumn("small");
        byte[] before = text.bytes();

        text.clear();

        assertThat(text.bytes()).isSameAs(before);
    }
}
