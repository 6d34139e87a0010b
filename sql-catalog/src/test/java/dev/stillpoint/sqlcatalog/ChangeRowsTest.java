package dev.stillpoint.sqlcatalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.ports.in.LoggedChange;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What one key's rows in a window make of it [I2], the rule both SQL change logs read their windows with: the
 * last row's new image, the first row's old image where the log keeps old images, and nothing for a key that
 * was absent at both ends.
 */
class ChangeRowsTest {

    private static final String KEY = "{\"pk\":{\"S\":\"a\"}}";
    private static final String V1 = "{\"pk\":{\"S\":\"a\"},\"v\":{\"N\":\"1\"}}";
    private static final String V2 = "{\"pk\":{\"S\":\"a\"},\"v\":{\"N\":\"2\"}}";

    private static Item item(String v) {
        return Item.of(Map.of("pk", AttributeValue.s("a"), "v", AttributeValue.n(v)));
    }

    // Mutant: the absent-at-both-ends rule removed -> the first assertion fails (a tombstone comes out).
    @Test
    void i2_aKeyPutAndDeletedInsideTheWindowMadeNoChangeWhereOldImagesTellItWasAbsent() {
        assertThat(ChangeRows.windowChange(ChangeRows.PUT, null, ChangeRows.DELETE, KEY, null, true))
                .as("[I2] absent at the start (a PUT with no old image) and at the end: no change").isEmpty();
        assertThat(ChangeRows.windowChange(ChangeRows.PUT, null, ChangeRows.DELETE, KEY, null, false))
                .as("[I2] without old images the log cannot tell: a tombstone")
                .contains(new LoggedChange(Item.of(Map.of("pk", AttributeValue.s("a"))), Optional.empty(), Optional.empty()));
    }

    @Test
    void i2_theChangeIsTheLastNewImageAndTheFirstOldImage() {
        assertThat(ChangeRows.windowChange(ChangeRows.PUT, V1, ChangeRows.DELETE, KEY, null, true))
                .as("[I2] there at the start, gone at the end: a tombstone carrying the old image")
                .contains(new LoggedChange(Item.of(Map.of("pk", AttributeValue.s("a"))), Optional.empty(),
                        Optional.of(item("1"))));
        assertThat(ChangeRows.windowChange(ChangeRows.DELETE, V1, ChangeRows.PUT, KEY, V2, true))
                .contains(new LoggedChange(Item.of(Map.of("pk", AttributeValue.s("a"))), Optional.of(item("2")),
                        Optional.of(item("1"))));
        assertThat(ChangeRows.windowChange(ChangeRows.PUT, V1, ChangeRows.PUT, KEY, V2, false))
                .as("[I2] a log of new images only hands no old image, whatever the row holds")
                .contains(new LoggedChange(Item.of(Map.of("pk", AttributeValue.s("a"))), Optional.of(item("2")),
                        Optional.empty()));
    }
}
