package dev.stillpoint.properties.values;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.itemjson.ItemJson;
import org.junit.jupiter.api.Test;

/**
 * What the codec says and writes beside items: a refusal names the bad text, cut to 64 characters with its
 * length when longer [R6]; and an item text holding unpaired surrogates (which UTF-8 cannot hold) can be
 * written with them escaped and reads back as the same item [E1].
 */
class ItemJsonMessagesTest {

    @Test
    void r6_aLongUnknownTypeTagIsNamedCutWithItsLength() {
        String tag = "X".repeat(70);
        assertThatThrownBy(() -> ItemJson.decode("{\"a\":{\"" + tag + "\":\"v\"}}"))
                .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.getMessage())
                        .contains("unknown type tag '" + "X".repeat(64) + "...' (70 characters)"));
        String shortTag = "Y".repeat(64);
        assertThatThrownBy(() -> ItemJson.decode("{\"a\":{\"" + shortTag + "\":\"v\"}}"))
                .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.getMessage())
                        .contains("unknown type tag '" + shortTag + "'"));
    }

    @Test
    void e1_unpairedSurrogatesEscapedReadBackAsTheSameItem() {
        String json = "{\"s\":{\"S\":\"a\uD800b\uDC00c\"}}";
        String escaped = ItemJson.escapeUnpairedSurrogates(json);
        assertThat(escaped).isEqualTo("{\"s\":{\"S\":\"a\\ud800b\\udc00c\"}}")
                .doesNotContain("\uD800");
        Item item = ItemJson.decode(escaped);
        assertThat(item).isEqualTo(ItemJson.decode(json));
        assertThat(((AttributeValue.S) item.get("s")).value()).isEqualTo("a\uD800b\uDC00c");
        assertThat(ItemJson.escapeUnpairedSurrogates("{\"s\":{\"S\":\"\uD83D\uDE00\"}}")).as("a pair is kept")
                .isEqualTo("{\"s\":{\"S\":\"\uD83D\uDE00\"}}");
    }
}
