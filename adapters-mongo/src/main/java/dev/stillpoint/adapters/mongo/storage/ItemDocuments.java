package dev.stillpoint.adapters.mongo.storage;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.domain.item.Utf8Text;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonBoolean;
import org.bson.BsonDecimal128;
import org.bson.BsonDocument;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.types.Decimal128;

/**
 * An item as a BSON value: an array of {@code {n: <name>, v: <typed value>}} pairs, in the item's
 * attribute order. Names are values, not field names, because an attribute name may be any text
 * (a field name may not hold NUL, and {@code $} or {@code .} in one is trouble for queries).
 *
 * <p>A typed value is a one-field document named by its DynamoDB type: {@code S} a string, {@code N}
 * a Decimal128, {@code B} binary, {@code BOOL}, {@code NULL}, {@code L} an array of typed values,
 * {@code M} an array of pairs, {@code SS}/{@code NS}/{@code BS} arrays. A value whose L/M nesting
 * would take the document past MongoDB's 100 levels is kept whole as its DynamoDB JSON text under
 * {@code J}: an L level costs two BSON levels and an M level three, and an item may nest 64.
 *
 * <p>Decimal128 holds 34 significant digits; DynamoDB allows 38. A number with more than 34 is refused
 * at the put with a validation error naming the attribute and the number [M4], never rounded.
 */
public final class ItemDocuments {

    /** Significant digits a Decimal128 holds. */
    public static final int NUMBER_DIGITS = 34;

    /** L/M levels stored as BSON; deeper values are kept as JSON text (3 * 24 + the item's own levels < 100). */
    static final int TYPED_NESTING = 24;

    private ItemDocuments() {
    }

    /** The BSON form of a validated item; a validation error for text or numbers MongoDB cannot hold exactly. */
    public static BsonArray encode(Item item) {
        BsonArray pairs = new BsonArray();
        for (Map.Entry<String, AttributeValue> e : item.attributes().entrySet()) {
            String name = e.getKey();
            Utf8Text.requireWellFormed(name, "attribute name '" + name + "'", "MongoDB");
            pairs.add(pair(name, typed(e.getValue(), name, 0)));
        }
        return pairs;
    }

    /** The item a stored BSON value holds; an Internal error naming {@code where} when it is not one. */
    public static Item decode(BsonValue stored, String where) {
        try {
            return Item.of(attributes(stored, 0));
        } catch (RuntimeException e) {
            throw StorageException.internal("cannot decode the item " + where + ": " + e.getMessage(), e);
        }
    }

    private static BsonDocument pair(String name, BsonValue value) {
        return new BsonDocument("n", new BsonString(name)).append("v", value);
    }

    private static BsonValue typed(AttributeValue value, String path, int depth) {
        if (value instanceof AttributeValue.S s) {
            return new BsonDocument("S", string(s.value(), path));
        } else if (value instanceof AttributeValue.N n) {
            return new BsonDocument("N", number(n.text(), path));
        } else if (value instanceof AttributeValue.B b) {
            return new BsonDocument("B", new BsonBinary(b.bytes()));
        } else if (value instanceof AttributeValue.Bool b) {
            return new BsonDocument("BOOL", BsonBoolean.valueOf(b.value()));
        } else if (value instanceof AttributeValue.Null) {
            return new BsonDocument("NULL", BsonBoolean.TRUE);
        } else if (value instanceof AttributeValue.SS ss) {
            BsonArray a = new BsonArray();
            ss.values().forEach(v -> a.add(string(v, path)));
            return new BsonDocument("SS", a);
        } else if (value instanceof AttributeValue.NS ns) {
            BsonArray a = new BsonArray();
            ns.values().forEach(v -> a.add(number(v, path)));
            return new BsonDocument("NS", a);
        } else if (value instanceof AttributeValue.BS bs) {
            BsonArray a = new BsonArray();
            bs.values().forEach(v -> a.add(new BsonBinary(v)));
            return new BsonDocument("BS", a);
        } else if (depth >= TYPED_NESTING) {
            return deep(value, path);
        } else if (value instanceof AttributeValue.L l) {
            BsonArray a = new BsonArray();
            for (int i = 0; i < l.values().size(); i++) {
                a.add(typed(l.values().get(i), path + "[" + i + "]", depth + 1));
            }
            return new BsonDocument("L", a);
        } else if (value instanceof AttributeValue.M m) {
            BsonArray a = new BsonArray();
            for (Map.Entry<String, AttributeValue> e : m.values().entrySet()) {
                Utf8Text.requireWellFormed(e.getKey(), "map key '" + e.getKey() + "' of '" + path + "'", "MongoDB");
                a.add(pair(e.getKey(), typed(e.getValue(), path + "." + e.getKey(), depth + 1)));
            }
            return new BsonDocument("M", a);
        }
        throw StorageException.internal("no BSON form for a " + value.typeName() + " value", null);
    }

    /** A value nested too deep for BSON, kept as the DynamoDB JSON of a one-attribute item. */
    private static BsonDocument deep(AttributeValue value, String path) {
        String json = ItemJson.encode(Item.of(Map.of("v", value)));
        return new BsonDocument("J", string(json, path));
    }

    private static BsonString string(String text, String path) {
        return new BsonString(Utf8Text.requireWellFormed(text, "attribute '" + path + "'", "MongoDB"));
    }

    private static BsonDecimal128 number(String canonical, String path) {
        BigDecimal value = new BigDecimal(canonical);
        int digits = value.signum() == 0 ? 1 : value.stripTrailingZeros().precision();
        if (digits > NUMBER_DIGITS) {
            throw StorageException.validation("number " + canonical + " of attribute '" + path + "' has "
                    + digits + " significant digits; MongoDB stores numbers as Decimal128, which holds at most "
                    + NUMBER_DIGITS);
        }
        return new BsonDecimal128(new Decimal128(value.stripTrailingZeros()));
    }

    private static Map<String, AttributeValue> attributes(BsonValue pairs, int depth) {
        if (!pairs.isArray()) {
            throw new IllegalArgumentException("expected an array of {n, v} pairs, found " + pairs.getBsonType());
        }
        Map<String, AttributeValue> out = new LinkedHashMap<>();
        for (BsonValue p : pairs.asArray()) {
            if (!p.isDocument() || !p.asDocument().isString("n") || !p.asDocument().containsKey("v")) {
                throw new IllegalArgumentException("expected a {n: <string>, v: <value>} pair, found " + p);
            }
            String name = p.asDocument().getString("n").getValue();
            if (out.put(name, value(p.asDocument().get("v"), depth)) != null) {
                throw new IllegalArgumentException("name '" + name + "' appears twice");
            }
        }
        return out;
    }

    private static AttributeValue value(BsonValue typed, int depth) {
        if (!typed.isDocument() || typed.asDocument().size() != 1) {
            throw new IllegalArgumentException("expected a one-field typed value, found " + typed);
        }
        Map.Entry<String, BsonValue> only = typed.asDocument().entrySet().iterator().next();
        BsonValue v = only.getValue();
        return switch (only.getKey()) {
            case "S" -> new AttributeValue.S(v.asString().getValue());
            case "N" -> number(v);
            case "B" -> new AttributeValue.B(v.asBinary().getData());
            case "BOOL" -> v.asBoolean().getValue() ? AttributeValue.Bool.TRUE : AttributeValue.Bool.FALSE;
            case "NULL" -> AttributeValue.Null.INSTANCE;
            case "SS" -> new AttributeValue.SS(v.asArray().stream().map(x -> x.asString().getValue())
                    .collect(Collectors.toCollection(LinkedHashSet::new)));
            case "NS" -> new AttributeValue.NS(v.asArray().stream().map(x -> number(x).text())
                    .collect(Collectors.toCollection(LinkedHashSet::new)));
            case "BS" -> new AttributeValue.BS(v.asArray().stream().map(x -> x.asBinary().getData()).toList());
            case "L" -> {
                List<AttributeValue> values = new ArrayList<>();
                for (BsonValue x : v.asArray()) {
                    values.add(value(x, depth + 1));
                }
                yield new AttributeValue.L(values);
            }
            case "M" -> new AttributeValue.M(attributes(v, depth + 1));
            case "J" -> ItemJson.decode(v.asString().getValue()).get("v");
            default -> throw new IllegalArgumentException("unknown type '" + only.getKey() + "'");
        };
    }

    /** A stored number: normalised when it is a number, kept raw (NaN, Infinity) otherwise [S4]. */
    private static AttributeValue.N number(BsonValue v) {
        return AttributeValue.N.fromStored(v.asDecimal128().getValue().toString());
    }
}
