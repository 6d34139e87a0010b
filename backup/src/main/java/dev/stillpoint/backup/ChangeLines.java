package dev.stillpoint.backup;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stillpoint.backup.BackupFailure.Problem;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.table.ChangeLog;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.itemjson.ItemJson;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Every line's check of an incremental export [I3] for {@link CheckedChanges}, one file after another, and the
 * changes found so far: an object of {@code Keys}, {@code NewImage}, {@code OldImage} (and {@code Metadata} in
 * DynamoDB's layout) only; Keys exactly the target's key; NewImage put to PutItem's rules on the target [V2]
 * and keyed as Keys; OldImage only in the NEW_AND_OLD_IMAGES view; then, across every file, one line per key.
 * The checked changes go to a {@link ChangeSpool} and their keys' digests to {@link KeyDigests}, so a check
 * holds a bounded amount of memory whatever the window's size; closing a check not handed over removes both.
 */
final class ChangeLines implements AutoCloseable {
    private static final ObjectMapper STRICT = new ObjectMapper(ItemJsonReading.strictFactory());
    private static final Set<String> FIELDS = Set.of("Keys", "NewImage", "OldImage");

    private final TableDescription target;
    private final ChangeLog view;
    private final boolean metadata;
    private final ItemCheck keyCheck;
    private final ItemCheck imageCheck;
    private final List<Path> read = new ArrayList<>();
    private final KeyDigests keys;
    private ChangeSpool spool = new ChangeSpool();

    ChangeLines(TableDescription target, ChangeLog view, boolean metadata) {
        this.target = target;
        this.view = view;
        this.metadata = metadata;
        this.keyCheck = new ItemCheck(target.keySchema(), target.attributeDefinitions());
        this.imageCheck = new ItemCheck(target.keySchema(), target.attributeDefinitions());
        this.keys = new KeyDigests(target.keySchema());
    }

    void add(Path file, long line, String text) {
        JsonNode n;
        try {
            n = STRICT.readTree(text);
        } catch (JsonProcessingException e) {
            throw bad(file, line, "is not JSON: " + e.getOriginalMessage());
        }
        if (n == null || !n.isObject()) {
            throw bad(file, line, "is not a JSON object");
        }
        for (Iterator<String> names = n.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!FIELDS.contains(name) && !(metadata && name.equals("Metadata"))) {
                throw bad(file, line, "has a member '" + name + "' an incremental export line does not have");
            }
        }
        if (metadata) {
            JsonNode micros = n.path("Metadata").path("WriteTimestampMicros").path("N");
            if (!micros.isTextual() || !micros.asText().matches("[0-9]{1,19}")) {
                throw bad(file, line, "has no Metadata.WriteTimestampMicros number");
            }
        }
        if (!n.has("Keys")) {
            throw bad(file, line, "has no Keys");
        }
        Item keys = DataFileLines.checked(n.get("Keys").toString(), file, line, keyCheck, target);
        int keyAttributes = target.keySchema().sortKey().isPresent() ? 2 : 1;
        if (keys.attributes().size() != keyAttributes) {
            throw bad(file, line, "has Keys with attributes besides the table's key " + target.keySchema());
        }
        Optional<Item> image = Optional.empty();
        if (n.has("NewImage")) {
            Item item = DataFileLines.checked(n.get("NewImage").toString(), file, line, imageCheck, target);
            if (!ItemJson.encode(Item.of(keyOf(item))).equals(ItemJson.encode(keys))) {
                throw bad(file, line, "has a NewImage whose key is not its Keys " + ItemJson.encode(keys));
            }
            image = Optional.of(item);
        }
        if (n.has("OldImage")) {
            if (!view.keepsOldImage()) {
                throw bad(file, line, "has an OldImage, but the export's view is " + view);
            }
            keyCheck.check(new LineText(n.get("OldImage").toString()), line, "line " + line + " of " + file);
        }
        if (read.isEmpty() || !read.get(read.size() - 1).equals(file)) {
            read.add(file);
        }
        this.keys.add(keys, KeyDigests.place(read.size() - 1, line));
        spool.add(keys, image);
    }

    private java.util.Map<String, dev.stillpoint.domain.item.AttributeValue> keyOf(Item item) {
        java.util.Map<String, dev.stillpoint.domain.item.AttributeValue> key = new java.util.LinkedHashMap<>();
        key.put(target.keySchema().partitionKey(), item.get(target.keySchema().partitionKey()));
        target.keySchema().sortKey().ifPresent(s -> key.put(s, item.get(s)));
        return key;
    }

    void requireCounts(long expectedPuts, long expectedTombstones, Path manifest) {
        if (spool.puts() != expectedPuts || spool.tombstones() != expectedTombstones) {
            throw new BackupFailure(Problem.INTEGRITY, manifest, 0, "the data holds " + spool.puts() + " puts and "
                    + spool.tombstones() + " tombstones; " + manifest + " says " + expectedPuts + " and "
                    + expectedTombstones, null);
        }
    }

    /**
     * The changes, after the one-key-one-line check across every file read [V4], handed over: the caller closes
     * them, and closing this check no longer removes them.
     */
    ChangeSpool checked() {
        KeyDigests.Duplicate[] first = {null};
        keys.collapsed(d -> {
            if (first[0] == null || d.second() < first[0].second()) {
                first[0] = d;
            }
        });
        if (first[0] != null) {
            Path a = read.get(KeyDigests.file(first[0].first()));
            Path b = read.get(KeyDigests.file(first[0].second()));
            throw new BackupFailure(Problem.ITEM, b, KeyDigests.line(first[0].second()), a + " line "
                    + KeyDigests.line(first[0].first()) + " and " + b + " line " + KeyDigests.line(first[0].second())
                    + " change one key; an incremental export holds one change per key", null);
        }
        ChangeSpool checked = spool.finished();
        spool = null;
        return checked;
    }

    /** Removes the key digests, and the changes unless {@link #checked} handed them over. */
    @Override
    public void close() {
        keys.close();
        if (spool != null) {
            spool.close();
        }
    }

    private static BackupFailure bad(Path file, long line, String why) {
        return new BackupFailure(Problem.ITEM, file, line, file + " line " + line + " " + why, null);
    }

    /** A line's image as the item check takes it. */
    private record LineText(String json) implements dev.stillpoint.ports.in.StoredItem {
        @Override
        public Item item() {
            return ItemJson.decode(json);
        }
    }
}
