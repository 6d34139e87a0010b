package dev.stillpoint.sqlcatalog;

import dev.stillpoint.domain.item.Item;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.ports.in.LoggedChange;
import java.util.Optional;

/**
 * The rows of a table's change log relation [I1], the same kinds on both SQL backends, and what a key's rows
 * in a window make of it [I2]. Where a row's instant comes from differs (SQLite's commit sequence,
 * PostgreSQL's xid and snapshots); what the rows mean does not.
 */
public final class ChangeRows {

    /** A put or an overwrite: the new image, and the old one where the log keeps it. */
    public static final String PUT = "PUT";
    /** A delete that removed an item: a tombstone with the keys, and the old image where kept. */
    public static final String DELETE = "DELETE";
    /** The log's first instant; a marker older than it is refused [I4]. */
    public static final String START = "START";
    /** A trim pass's checkpoint [I4]: where a later trim may cut the log. */
    public static final String MARK = "MARK";

    private ChangeRows() {
    }

    /**
     * The change one key's rows in a window make [I2]: the last row's new image (none after a delete), and
     * the first row's old image where the log keeps old images. A key written and then deleted inside the
     * window, absent at both ends, made no change at all (empty).
     *
     * @param firstKind the kind of the key's first row in the window
     * @param firstOldImage that row's old image as stored, or null
     * @param lastKind the kind of the key's last row in the window
     * @param keyJson the key attributes as stored
     * @param lastNewImage the last row's new image as stored, or null
     * @param oldImages whether the log keeps old images
     * @return the change, or empty when there was none
     */
    public static Optional<LoggedChange> windowChange(String firstKind, String firstOldImage, String lastKind,
                                                      String keyJson, String lastNewImage, boolean oldImages) {
        Optional<Item> old = oldImages ? image(firstOldImage) : Optional.empty();
        boolean deleted = lastKind.equals(DELETE);
        if (deleted && oldImages && firstKind.equals(PUT) && old.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new LoggedChange(ItemJson.decode(keyJson), deleted ? Optional.empty() : image(lastNewImage),
                old));
    }

    private static Optional<Item> image(String json) {
        return json == null ? Optional.empty() : Optional.of(ItemJson.decode(json));
    }
}
