package dev.stillpoint.backup;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.in.StoredItem;
import dev.stillpoint.ports.in.StoredKey;
import java.io.IOException;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * The check an export makes of every item before writing it [E1]: its stored text is well-formed
 * DynamoDB JSON (one object of attributes, each value exactly one type tag with a value of that
 * tag's shape: S, N strings; B base64; BOOL; NULL true; L, M nested at most {@value ItemJson#MAX_NESTING}
 * deep; SS, NS, BS arrays of strings; no repeated attribute or map key; nothing after the object), and
 * its key attributes are present, of their defined types, and equal to the key the row is stored
 * under where the backend keeps one ({@link StoredItem#storedKey()}).
 *
 * <p>One pass of Jackson's streaming parser over the text: tokens are checked and skipped, only the
 * key attributes' values are kept; nothing else is decoded. N texts are not validated (an invalid
 * number is yielded raw as stored [S4] and restored as such), except in the key, which must encode.
 */
public final class ItemCheck {

    /** A stored item that failed the check; the message names it by position (from 1) and stored key. */
    public static final class Failed extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Failed(String message) {
            super(message, null, false, false);
        }
    }

    private static final JsonFactory JSON = JsonFactory.builder()
            .enable(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    private final String partitionName;
    private final Optional<String> sortName;
    private final Optional<ScalarType> partitionType;
    private final Optional<ScalarType> sortType;

    /**
     * The check of items of {@code table}: its key attributes and their defined types.
     *
     * @param table the table the items belong to
     */
    public ItemCheck(TableDescription table) {
        this(table.keySchema(), table.attributeDefinitions());
    }

    /**
     * The check of items of a table with key {@code key}, typed by {@code definitions}.
     *
     * @param key         the table's key
     * @param definitions the key attributes' types (an attribute not defined is checked for presence only)
     */
    public ItemCheck(KeySchema key, List<AttributeDefinition> definitions) {
        this.partitionName = key.partitionKey();
        this.sortName = key.sortKey();
        this.partitionType = typeOf(definitions, partitionName);
        this.sortType = sortName.flatMap(n -> typeOf(definitions, n));
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
        String json = item.json();
        AttributeValue partition = null;
        AttributeValue sort = null;
        try (JsonParser p = JSON.createParser(json)) {
            expect(p.nextToken() == JsonToken.START_OBJECT, "it is not a JSON object");
            JsonToken t;
            while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                if (name.equals(partitionName)) {
                    partition = keyValue(p, name, partitionType);
                } else if (sortName.isPresent() && name.equals(sortName.get())) {
                    sort = keyValue(p, name, sortType);
                } else {
                    value(p, 0, name, p.nextToken());
                }
            }
            expect(t == JsonToken.END_OBJECT, "unexpected " + t);
            expect(p.nextToken() == null, "text follows the item's closing brace");
        } catch (JsonProcessingException e) {
            throw failed(item, position, where, "it is not well-formed JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw failed(item, position, where, "it cannot be read: " + e.getMessage());
        } catch (Malformed e) {
            throw failed(item, position, where, e.getMessage());
        }
        if (partition == null) {
            throw failed(item, position, where, "it has no partition key attribute '" + partitionName + "'");
        }
        if (sortName.isPresent() && sort == null) {
            throw failed(item, position, where, "it has no sort key attribute '" + sortName.get() + "'");
        }
        Key key = sort == null ? Key.of(partition) : Key.of(partition, sort);
        Optional<StoredKey> stored = item.storedKey();
        if (stored.isPresent() && !stored.get().matches(key)) {
            throw failed(item, position, where, "its key attributes (" + show(key) + ") are not the key its row is stored under");
        }
    }

    private static Failed failed(StoredItem item, long position, String line, String why) {
        String where = item.storedKey().map(k -> ", stored key " + k.describe()).orElse("");
        return new Failed("item " + position + " (" + line + where
                + ") is not a sound DynamoDB JSON item: " + why);
    }

    private static String show(Key key) {
        return render(key.partition()) + key.sort().map(s -> ", " + render(s)).orElse("");
    }

    private static String render(AttributeValue v) {
        String text = v instanceof AttributeValue.S s ? s.value()
                : v instanceof AttributeValue.N n ? n.text()
                : v instanceof AttributeValue.B b ? Base64.getEncoder().encodeToString(b.bytes())
                : v.typeName();
        if (text.length() > 64) {
            text = text.substring(0, 64) + "...";
        }
        return v.typeName() + " '" + text + "'";
    }

    /** A key attribute's value: {@code {"S"|"N"|"B": "..."}} of the defined type. */
    private static AttributeValue keyValue(JsonParser p, String name, Optional<ScalarType> defined) throws IOException {
        expect(p.nextToken() == JsonToken.START_OBJECT, "key attribute '" + name + "' is not a typed value object");
        expect(p.nextToken() == JsonToken.FIELD_NAME, "key attribute '" + name + "' has no type tag");
        String tag = p.currentName();
        expect(p.nextToken() == JsonToken.VALUE_STRING, "key attribute '" + name + "' (" + tag + ") is not a string");
        String text = p.getText();
        AttributeValue v = switch (tag) {
            case "S" -> new AttributeValue.S(text);
            case "N" -> new AttributeValue.N(text);
            case "B" -> new AttributeValue.B(base64(text, name));
            default -> throw new Malformed("key attribute '" + name + "' has type " + tag + ", not S, N or B");
        };
        defined.ifPresent(type -> expect(type.name().equals(tag),
                "key attribute '" + name + "' is " + tag + " but the table defines it as " + type));
        expect(p.nextToken() == JsonToken.END_OBJECT, "key attribute '" + name + "' has more than one type tag");
        return v;
    }

    /**
     * One attribute value whose first token {@code first} was just read, checked and skipped;
     * {@code depth} counts the L and M levels around it.
     */
    private static void value(JsonParser p, int depth, String name, JsonToken first) throws IOException {
        expect(first == JsonToken.START_OBJECT, "attribute '" + name + "' is not a typed value object");
        expect(p.nextToken() == JsonToken.FIELD_NAME, "attribute '" + name + "' has no type tag");
        String tag = p.currentName();
        JsonToken t = p.nextToken();
        switch (tag) {
            case "S", "N" -> expect(t == JsonToken.VALUE_STRING, "attribute '" + name + "' (" + tag + ") is not a string");
            case "B" -> {
                expect(t == JsonToken.VALUE_STRING, "attribute '" + name + "' (B) is not a string");
                base64Shape(p.getText(), name);
            }
            case "BOOL" -> expect(t == JsonToken.VALUE_TRUE || t == JsonToken.VALUE_FALSE,
                    "attribute '" + name + "' (BOOL) is not true or false");
            case "NULL" -> expect(t == JsonToken.VALUE_TRUE, "attribute '" + name + "' (NULL) is not true");
            case "SS", "NS", "BS" -> {
                expect(t == JsonToken.START_ARRAY, "attribute '" + name + "' (" + tag + ") is not an array");
                while ((t = p.nextToken()) == JsonToken.VALUE_STRING) {
                    if (tag.equals("BS")) {
                        base64Shape(p.getText(), name);
                    }
                }
                expect(t == JsonToken.END_ARRAY, "attribute '" + name + "' (" + tag + ") holds a non-string");
            }
            case "L" -> {
                expect(t == JsonToken.START_ARRAY, "attribute '" + name + "' (L) is not an array");
                nested(depth, name);
                int i = 0;
                while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
                    value(p, depth + 1, name + "[" + i++ + "]", t);
                }
            }
            case "M" -> {
                expect(t == JsonToken.START_OBJECT, "attribute '" + name + "' (M) is not an object");
                nested(depth, name);
                while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
                    value(p, depth + 1, name + "." + p.currentName(), p.nextToken());
                }
                expect(t == JsonToken.END_OBJECT, "attribute '" + name + "' (M) is not closed");
            }
            default -> throw new Malformed("attribute '" + name + "' has unknown type tag '" + tag + "'");
        }
        expect(p.nextToken() == JsonToken.END_OBJECT, "attribute '" + name + "' has more than one type tag");
    }

    private static void nested(int depth, String name) {
        expect(depth + 1 <= ItemJson.MAX_NESTING, "attribute '" + name + "' nests L/M deeper than "
                + ItemJson.MAX_NESTING + " levels");
    }

    private static byte[] base64(String text, String name) {
        base64Shape(text, name);
        return Base64.getDecoder().decode(text);
    }

    /** Standard padded base64 by its shape only (alphabet, length, padding), without decoding. */
    private static void base64Shape(String text, String name) {
        int n = text.length();
        boolean ok = n % 4 == 0;
        for (int i = 0; ok && i < n; i++) {
            char c = text.charAt(i);
            boolean digit = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/';
            boolean pad = c == '=' && i >= n - 2 && (i == n - 1 || text.charAt(n - 1) == '=');
            ok = digit || pad;
        }
        expect(ok, "attribute '" + name + "' is not standard padded base64");
    }

    private static void expect(boolean condition, String why) {
        if (!condition) {
            throw new Malformed(why);
        }
    }

    private static final class Malformed extends RuntimeException {
        Malformed(String message) {
            super(message, null, false, false);
        }
    }
}
