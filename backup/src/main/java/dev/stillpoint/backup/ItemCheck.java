package dev.stillpoint.backup;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.request.ItemRules;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.itemjson.Base64Text;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.ports.in.StoredItem;
import dev.stillpoint.ports.in.StoredKey;
import java.io.IOException;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The check an export makes of every item before writing it [E1, V2]: its stored text is well-formed
 * DynamoDB JSON (one object of attributes, each value exactly one type tag with a value of that
 * tag's shape: S, N strings; B base64; BOOL; NULL true; L, M nested at most {@value ItemJson#MAX_NESTING}
 * deep; SS, NS, BS arrays of strings; no repeated attribute or map key; nothing after the object), and
 * its key attributes are present, of their defined types, and equal to the key the row is stored
 * under where the backend keeps one ({@link StoredItem#storedKey()}).
 *
 * <p>The check's own part (the stored bytes, the stored key) is one pass of Jackson's streaming parser
 * over the text: tokens are checked and skipped, only the key attributes' values are kept. When the check
 * knows the table ({@link #ItemCheck(TableDescription)}), the item is also put to DynamoDB's item rules as
 * PutItem states them ({@link ItemRules#forPut}) [V2]: an item PutItem would refuse (an invalid or 39-digit
 * number, an empty set, a value nested past 32 levels, an item over 400 KB, an index key over its limit) is
 * never exported, so an export that ends well always restores. There a sound item is answered in one pass
 * instead (decoded, put to the rules, its key compared), and the parse runs only to name a failing item's
 * fault, so the verdict and the message are the parse's (ItemCheckOnePassTest holds them to it).
 */
public final class ItemCheck {
    private static final Pattern JACKSON_SOURCE =
            Pattern.compile("\\[Source: [^\\]]*?; line: \\d+, column: (\\d+)\\]");

    /** A stored item that failed the check; the message names it by position (from 1) and stored key. */
    public static final class Failed extends RuntimeException {
        private static final long serialVersionUID = 1L;

        private final String why;

        Failed(String message, String why) {
            super(message, null, false, false);
            this.why = why;
        }

        /** What is wrong with the item, without where it is: for a caller that names the place itself. */
        String why() {
            return why;
        }
    }

    /** Repeated names are found by {@link ObjectNames}, not by Jackson's duplicate detection, which builds a set per object. */
    private static final JsonFactory JSON = ItemJsonReading.factory();

    private final KeySchema key;
    private final String partitionName;
    private final Optional<String> sortName;
    private final Optional<ScalarType> partitionType;
    private final Optional<ScalarType> sortType;
    /** The table whose rules every item must pass, or null where the caller applies them itself. */
    private final TableDescription rules;
    /** The names read so far in each open object, by L/M depth (0: the item's attributes). */
    private final ObjectNames[] names = new ObjectNames[ItemJson.MAX_NESTING + 2];

    /**
     * The check of items of {@code table}: its key attributes and their defined types, then PutItem's rules
     * against the table's definition, its indexes included.
     *
     * @param table the table the items belong to
     */
    public ItemCheck(TableDescription table) {
        this(table.keySchema(), table.attributeDefinitions(), table);
    }

    /**
     * The check of items of a table with key {@code key}, typed by {@code definitions}: the text and the key
     * only (the caller decodes the item and applies the item rules itself).
     *
     * @param key         the table's key
     * @param definitions the key attributes' types (an attribute not defined is checked for presence only)
     */
    public ItemCheck(KeySchema key, List<AttributeDefinition> definitions) {
        this(key, definitions, null);
    }

    private ItemCheck(KeySchema key, List<AttributeDefinition> definitions, TableDescription rules) {
        this.rules = rules;
        this.key = key;
        this.partitionName = key.partitionKey();
        this.sortName = key.sortKey();
        this.partitionType = typeOf(definitions, partitionName);
        this.sortType = sortName.flatMap(n -> typeOf(definitions, n));
        for (int i = 0; i < names.length; i++) {
            names[i] = new ObjectNames();
        }
    }

    private static Optional<ScalarType> typeOf(List<AttributeDefinition> definitions, String name) {
        return definitions.stream().filter(d -> d.name().equals(name))
                .map(AttributeDefinition::type).findFirst();
    }

    /**
     * Checks {@code item}, the {@code position}-th of the stream (from 1), written to line {@code position}
     * of our layout's data file.
     *
     * @param item     the stored item
     * @param position its position in the stream, from 1
     * @throws Failed naming it
     */
    public void check(StoredItem item, long position) {
        check(item, position, "line " + position + " of " + StillpointLayout.DATA_FILE);
    }

    /**
     * Checks {@code item}, the {@code position}-th of the stream (from 1), to be written at {@code where}.
     *
     * @param item     the stored item
     * @param position its position in the stream, from 1
     * @param where    where it goes, for the message: "line N of FILE"
     * @throws Failed naming it
     */
    public void check(StoredItem item, long position, String where) {
        check(item, null, position, where);
    }

    /**
     * Checks {@code item} as {@link #check(StoredItem, long, String)} does, reading {@code utf8}, its
     * stored text already encoded (the export's line), instead of the text itself.
     *
     * @param item     the stored item
     * @param utf8     {@code item.json()} in UTF-8, or null to read the text
     * @param position its position in the stream, from 1
     * @param where    where it goes, for the message: "line N of FILE"
     * @throws Failed naming it
     */
    public void check(StoredItem item, byte[] utf8, long position, String where) {
        String why = problem(item, utf8);
        if (why != null) {
            throw failed(item, position, where, why);
        }
    }

    /**
     * What is wrong with {@code item}, or null when it passes: the check without naming a place, for a caller
     * that learns where the item goes only later ({@link #failed} then names it).
     *
     * @param item the stored item
     * @param utf8 {@code item.json()} in UTF-8, or null to read the text
     * @return why the item fails the check, or null
     */
    String problem(StoredItem item, byte[] utf8) {
        if (rules != null && passesDecoded(item, utf8)) {
            return null;
        }
        return problemParsed(item, utf8);
    }

    /**
     * The common case's verdict in one pass where PutItem's rules apply: the item decoded (the decoder refuses
     * every text {@link #problemParsed} refuses: not an object, a repeated name, a value not exactly one type tag
     * of its shape, base64 not canonical, nesting past {@value ItemJson#MAX_NESTING}, a control character
     * unescaped, text after the item), put to the rules (which refuse a key attribute missing or not of its
     * defined type), then its key compared with the stored key. False for anything else, and
     * {@link #problemParsed} then decides and names the fault, so an item fails exactly when it did without
     * this pass, with the same message; the token-by-token parse runs only for an item that fails.
     */
    private boolean passesDecoded(StoredItem item, byte[] utf8) {
        try {
            Item decoded = utf8 == null ? ItemJson.decode(item.json()) : ItemJson.decodeUtf8(utf8);
            ItemRules.forPut(rules, decoded);
            Optional<StoredKey> stored = item.storedKey();
            return stored.isEmpty() || stored.get().matches(Key.of(decoded, key));
        } catch (RuntimeException e) {
            return false; // refused, or a fault the parse meets too: it decides
        }
    }

    /** What is wrong with the item, found by parsing its text token by token; null when it passes. */
    String problemParsed(StoredItem item, byte[] utf8) {
        AttributeValue partition = null;
        AttributeValue sort = null;
        try (JsonParser p = utf8 == null ? JSON.createParser(item.json()) : JSON.createParser(utf8)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new Malformed("it is not a JSON object");
            }
            ObjectNames attributes = names[0].clear();
            JsonToken t;
            while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                if (!attributes.add(name)) {
                    throw new Malformed("attribute '" + name + "' appears twice");
                }
                if (name.equals(partitionName)) {
                    partition = keyValue(p, name, partitionType);
                } else if (sortName.isPresent() && name.equals(sortName.get())) {
                    sort = keyValue(p, name, sortType);
                } else {
                    value(p, 0, name, p.nextToken());
                }
            }
            if (t != JsonToken.END_OBJECT) {
                throw new Malformed("unexpected " + t);
            }
            if (p.nextToken() != null) {
                throw new Malformed("text follows the item's closing brace");
            }
        } catch (JsonProcessingException e) {
            return "it is not well-formed JSON: " + withoutSource(e.getOriginalMessage());
        } catch (IOException e) {
            return "it cannot be read: " + e.getMessage();
        } catch (Malformed e) {
            return e.getMessage();
        }
        if (partition == null) {
            return "it has no partition key attribute '" + partitionName + "'";
        }
        if (sortName.isPresent() && sort == null) {
            return "it has no sort key attribute '" + sortName.get() + "'";
        }
        Key key = sort == null ? Key.of(partition) : Key.of(partition, sort);
        Optional<StoredKey> stored = item.storedKey();
        if (stored.isPresent() && !stored.get().matches(key)) {
            return "its key attributes (" + show(key) + ") are not the key its row is stored under";
        }
        if (rules != null) {
            try {
                ItemRules.forPut(rules, utf8 == null ? ItemJson.decode(item.json()) : ItemJson.decodeUtf8(utf8));
            } catch (StorageException e) {
                return "PutItem would refuse it: " + e.getMessage();
            }
        }
        return null;
    }

    /**
     * Why an item whose stored bytes are not UTF-8 (so not JSON text at all) fails.
     *
     * @param bad the first byte of the first ill-formed sequence
     * @param at  its offset in the stored bytes
     * @return the reason, naming the byte and its offset
     */
    static String notUtf8(byte bad, int at) {
        return String.format("its stored text is not UTF-8 (byte 0x%02X at offset %d)", bad & 0xFF, at);
    }

    /** Why a stored text that is JSON but not one line (a raw line break between its tokens) fails [V5]. */
    static final String RAW_LINE_BREAK = "its stored text contains a raw line break, so it cannot be written as one JSON line";

    /**
     * The failure of {@code item}, the {@code position}-th of the stream (from 1), to be written at {@code line},
     * for {@code why} (as {@link #problem} answered it).
     */
    static Failed failed(StoredItem item, long position, String line, String why) {
        String where = item.storedKey().map(k -> ", stored key " + k.describe()).orElse("");
        return new Failed("item " + position + " (" + line + where
                + ") is not a sound DynamoDB JSON item: " + why, "not a sound DynamoDB JSON item: " + why);
    }

    private static String show(Key key) {
        return AttributeValue.shown(key.partition()) + key.sort().map(s -> ", " + AttributeValue.shown(s)).orElse("");
    }

    /** A key attribute's value: {@code {"S"|"N"|"B": "..."}} of the defined type. */
    private static AttributeValue keyValue(JsonParser p, String name, Optional<ScalarType> defined) throws IOException {
        if (p.nextToken() != JsonToken.START_OBJECT) {
            throw new Malformed("key attribute '" + name + "' is not a typed value object");
        }
        if (p.nextToken() != JsonToken.FIELD_NAME) {
            throw new Malformed("key attribute '" + name + "' has no type tag");
        }
        String tag = p.currentName();
        if (p.nextToken() != JsonToken.VALUE_STRING) {
            throw new Malformed("key attribute '" + name + "' (" + tag + ") is not a string");
        }
        String text = p.getText();
        AttributeValue v = switch (tag) {
            case "S" -> new AttributeValue.S(text);
            case "N" -> new AttributeValue.N(text);
            case "B" -> new AttributeValue.B(base64(text, name));
            default -> throw new Malformed("key attribute '" + name + "' has type " + tag + ", not S, N or B");
        };
        if (defined.isPresent() && !defined.get().name().equals(tag)) {
            throw new Malformed("key attribute '" + name + "' is " + tag + " but the table defines it as " + defined.get());
        }
        if (p.nextToken() != JsonToken.END_OBJECT) {
            throw new Malformed("key attribute '" + name + "' has more than one type tag");
        }
        return v;
    }

    /**
     * One attribute value whose first token {@code first} was just read, checked and skipped;
     * {@code depth} counts the L and M levels around it. {@code name} names it in a message only, so
     * an element's or member's name ({@code a[2]}, {@code a.b}) is built only for a message.
     */
    private void value(JsonParser p, int depth, Object name, JsonToken first) throws IOException {
        if (first != JsonToken.START_OBJECT) {
            throw new Malformed("attribute '" + name + "' is not a typed value object");
        }
        if (p.nextToken() != JsonToken.FIELD_NAME) {
            throw new Malformed("attribute '" + name + "' has no type tag");
        }
        String tag = p.currentName();
        JsonToken t = p.nextToken();
        switch (tag) {
            case "S", "N" -> require(t == JsonToken.VALUE_STRING, name, tag, "is not a string");
            case "B" -> {
                require(t == JsonToken.VALUE_STRING, name, tag, "is not a string");
                base64Shape(p, name);
            }
            case "BOOL" -> require(t == JsonToken.VALUE_TRUE || t == JsonToken.VALUE_FALSE, name, tag, "is not true or false");
            case "NULL" -> require(t == JsonToken.VALUE_TRUE, name, tag, "is not true");
            case "SS", "NS", "BS" -> {
                require(t == JsonToken.START_ARRAY, name, tag, "is not an array");
                boolean binary = tag.equals("BS");
                while ((t = p.nextToken()) == JsonToken.VALUE_STRING) {
                    if (binary) {
                        base64Shape(p, name);
                    }
                }
                require(t == JsonToken.END_ARRAY, name, tag, "holds a non-string");
            }
            case "L" -> {
                require(t == JsonToken.START_ARRAY, name, tag, "is not an array");
                nested(depth, name);
                int i = 0;
                while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
                    value(p, depth + 1, new Element(name, i++), t);
                }
            }
            case "M" -> {
                require(t == JsonToken.START_OBJECT, name, tag, "is not an object");
                nested(depth, name);
                ObjectNames members = names[depth + 1].clear();
                while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
                    Member member = new Member(name, p.currentName());
                    if (!members.add(member.key())) {
                        throw new Malformed("attribute '" + member + "' appears twice");
                    }
                    value(p, depth + 1, member, p.nextToken());
                }
                require(t == JsonToken.END_OBJECT, name, tag, "is not closed");
            }
            default -> throw new Malformed("attribute '" + name + "' has unknown type tag '" + tag + "'");
        }
        if (p.nextToken() != JsonToken.END_OBJECT) {
            throw new Malformed("attribute '" + name + "' has more than one type tag");
        }
    }

    private static void require(boolean condition, Object name, String tag, String otherwise) {
        if (!condition) {
            throw new Malformed("attribute '" + name + "' (" + tag + ") " + otherwise);
        }
    }

    private static void nested(int depth, Object name) {
        if (depth + 1 > ItemJson.MAX_NESTING) {
            throw new Malformed("attribute '" + name + "' nests L/M deeper than " + ItemJson.MAX_NESTING + " levels");
        }
    }

    private static byte[] base64(String text, String name) {
        if (!Base64Text.isCanonical(text)) {
            throw new Malformed("attribute '" + name + "' is not standard padded base64");
        }
        return Base64.getDecoder().decode(text);
    }

    private static void base64Shape(JsonParser p, Object name) throws IOException {
        if (!Base64Text.isCanonical(p.getTextCharacters(), p.getTextOffset(), p.getTextLength())) {
            throw new Malformed("attribute '" + name + "' is not standard padded base64");
        }
    }

    /** An element of an L, named {@code list[i]} in a message. */
    private record Element(Object list, int index) {
        @Override
        public String toString() {
            return list + "[" + index + "]";
        }
    }

    /** A member of an M, named {@code map.key} in a message. */
    private record Member(Object map, String key) {
        @Override
        public String toString() {
            return map + "." + key;
        }
    }

    private static final class Malformed extends RuntimeException {
        Malformed(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * Jackson's message without the "[Source: REDACTED (...); line: 1, column: N]" it embeds for an
     * unclosed object or array: the message already names the item and its line, so only the column
     * says anything to the reader.
     */
    private static String withoutSource(String jacksonMessage) {
        return JACKSON_SOURCE.matcher(jacksonMessage).replaceAll("column $1");
    }
}
