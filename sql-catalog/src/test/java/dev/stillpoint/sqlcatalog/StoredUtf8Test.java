package dev.stillpoint.sqlcatalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** [S4] The stored bytes are handed over as they are; as text only when they are UTF-8, never with U+FFFD put in. */
class StoredUtf8Test {

    private static byte[] bytes(String before, int bad, String after) {
        byte[] head = before.getBytes(StandardCharsets.UTF_8);
        byte[] tail = after.getBytes(StandardCharsets.UTF_8);
        byte[] all = new byte[head.length + 1 + tail.length];
        System.arraycopy(head, 0, all, 0, head.length);
        all[head.length] = (byte) bad;
        System.arraycopy(tail, 0, all, head.length + 1, tail.length);
        return all;
    }

    @Test
    void textThatIsNotUtf8IsRefusedNamingTheByteItsOffsetAndWhatCameBefore() {
        StoredUtf8 item = new StoredUtf8(bytes("{\"a\":{\"S\":\"x", 0x80, "\"}}"));

        assertThatThrownBy(item::json)
                .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.reason()).isEqualTo(ErrorReason.INTERNAL))
                .hasMessage("a stored item's text is not UTF-8: byte 0x80 at offset 12, after '{\"a\":{\"S\":\"x'");
        assertThatThrownBy(item::json).as("refused again, not cached as text").isInstanceOf(StorageException.class);
    }

    @Test
    void theTextBeforeIsItsLast40CodePointsNeverHalfAPair() {
        String before = "{\"a\":{\"S\":\"" + "\uD83D\uDE00".repeat(45);
        StoredUtf8 item = new StoredUtf8(bytes(before, 0xFF, "\"}}"));

        assertThatThrownBy(item::json)
                .hasMessageEndingWith("after '..." + "\uD83D\uDE00".repeat(40) + "'");
    }

    @Test
    void wellFormedTextComesBackAsStoredTheReplacementCharacterItselfIncluded() {
        String text = "{\"a\":{\"S\":\"caf\u00e9 \uFFFD \uD83D\uDE00\"}}";
        byte[] stored = text.getBytes(StandardCharsets.UTF_8);
        StoredUtf8 item = new StoredUtf8(stored);

        assertThat(item.json()).isEqualTo(text);
        assertThat(item.storedBytes()).containsSame(stored);
        assertThat(item.size()).isEqualTo(stored.length);
    }
}
