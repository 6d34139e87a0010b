package dev.stillpoint.domain.item;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** An item: attribute names mapped to values, immutable, in the caller's attribute order. */
public record Item(Map<String, AttributeValue> attributes) {
    /**
     * Copies {@code attributes}, refusing a missing map, name or value.
     *
     * @param attributes the values by attribute name
     */
    public Item {
        attributes = AttributeMap.copyOf(attributes, "item");
    }

    /**
     * An item holding a copy of {@code attributes}.
     *
     * @param attributes the values by attribute name
     * @return the item
     */
    public static Item of(Map<String, AttributeValue> attributes) {
        return new Item(attributes);
    }

    /**
     * The value of {@code name}, or {@code null} when the item has no such attribute.
     *
     * @param name the attribute name
     * @return the value, or {@code null}
     */
    public AttributeValue get(String name) {
        return attributes.get(name);
    }

    /**
     * The value of {@code name}, if the item has it.
     *
     * @param name the attribute name
     * @return the value, or empty
     */
    public Optional<AttributeValue> find(String name) {
        return Optional.ofNullable(attributes.get(name));
    }

    /**
     * A copy of this item with {@code name} set to {@code value}.
     *
     * @param name the attribute name
     * @param value its new value
     * @return the new item; this one is unchanged
     */
    public Item with(String name, AttributeValue value) {
        Map<String, AttributeValue> copy = new LinkedHashMap<>(attributes);
        copy.put(name, value);
        return new Item(copy);
    }

    /**
     * The item's size as DynamoDB counts it against the 400 KB limit [D3a]: names plus values.
     *
     * @return the size in bytes
     */
    public long sizeInBytes() {
        long size = 0;
        for (Map.Entry<String, AttributeValue> e : attributes.entrySet()) {
            size += utf8Length(e.getKey()) + sizeOf(e.getValue());
        }
        return size;
    }

    /**
     * The size of one value by DynamoDB's rules: S its UTF-8 bytes, B its length, BOOL and NULL 1,
     * L and M 3 plus, for each element, 1 byte and its size (and an M element's name), sets the sum of
     * their members. The item-size guide: "An attribute of type List or Map requires 3 bytes of overhead,
     * regardless of its contents" and "Each List or Map element also requires 1 byte of overhead"
     * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html).
     *
     * @param value an attribute value
     * @return its size in bytes
     */
    public static long sizeOf(AttributeValue value) {
        if (value instanceof AttributeValue.S s) {
            return utf8Length(s.value());
        }
        if (value instanceof AttributeValue.N n) {
            return numberSize(n.text());
        }
        if (value instanceof AttributeValue.B b) {
            return b.length();
        }
        if (value instanceof AttributeValue.Bool || value instanceof AttributeValue.Null) {
            return 1;
        }
        if (value instanceof AttributeValue.L l) {
            long size = 3;
            for (AttributeValue element : l.values()) {
                size += 1 + sizeOf(element);
            }
            return size;
        }
        if (value instanceof AttributeValue.M m) {
            long size = 3;
            for (Map.Entry<String, AttributeValue> e : m.values().entrySet()) {
                size += 1 + utf8Length(e.getKey()) + sizeOf(e.getValue());
            }
            return size;
        }
        if (value instanceof AttributeValue.SS ss) {
            long size = 0;
            for (String member : ss.values()) {
                size += utf8Length(member);
            }
            return size;
        }
        if (value instanceof AttributeValue.NS ns) {
            long size = 0;
            for (String member : ns.values()) {
                size += numberSize(member);
            }
            return size;
        }
        return ((AttributeValue.BS) value).totalLength();
    }

    /**
     * A number's size as DynamoDB charges it at its 400 KB gate: one byte, plus one byte per two significant
     * digits of the integer part and one per two of the fraction, each rounded up, plus one byte if negative;
     * zero is one byte. The guide gives only an approximation ("1 byte per two significant digits plus 1 byte",
     * CapacityUnitCalculations.html); this rule is the one measured against DynamoDB, byte-exact at the gate, for
     * 23 literals (nubo-db/dynamodb-conformance, src/item-size.ts, captured 2026-08-18). Text that is not a number
     * counts its length.
     */
    private static long numberSize(String text) {
        int n = text.length();
        int i = 0;
        boolean negative = false;
        if (i < n && (text.charAt(i) == '+' || text.charAt(i) == '-')) {
            negative = text.charAt(i) == '-';
            i++;
        }
        int digits = 0;
        int integerDigits = -1;
        long first = -1;
        long last = -1;
        for (; i < n; i++) {
            char c = text.charAt(i);
            if (c >= '0' && c <= '9') {
                if (c != '0') {
                    first = first < 0 ? digits : first;
                    last = digits;
                }
                digits++;
            } else if (c == '.' && integerDigits < 0) {
                integerDigits = digits;
            } else {
                break;
            }
        }
        integerDigits = integerDigits < 0 ? digits : integerDigits;
        long exponent = 0;
        if (i < n && (text.charAt(i) == 'e' || text.charAt(i) == 'E')) {
            i++;
            boolean negativeExponent = i < n && text.charAt(i) == '-';
            i += i < n && (text.charAt(i) == '+' || text.charAt(i) == '-') ? 1 : 0;
            int exponentStart = i;
            for (; i < n && text.charAt(i) >= '0' && text.charAt(i) <= '9'; i++) {
                exponent = Math.min(exponent * 10 + (text.charAt(i) - '0'), 1L << 40);
            }
            exponent = i == exponentStart ? Long.MIN_VALUE : negativeExponent ? -exponent : exponent;
        }
        if (i != n || digits == 0 || exponent == Long.MIN_VALUE) {
            return utf8Length(text);
        }
        if (first < 0) {
            return 1;
        }
        // Digits before position `point` are the integer part; a zero between significant digits counts.
        long point = integerDigits + exponent;
        long integerSignificant = first >= point ? 0 : Math.min(last + 1, point) - first;
        long fractionSignificant = last < point ? 0 : last + 1 - Math.max(first, point);
        return 1 + (integerSignificant + 1) / 2 + (fractionSignificant + 1) / 2 + (negative ? 1 : 0);
    }

    /**
     * The UTF-8 length of {@code text}; an unpaired surrogate counts three bytes.
     *
     * @param text the string
     * @return its length in UTF-8 bytes
     */
    public static long utf8Length(String text) {
        long length = 0;
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                length += 1;
            } else if (c < 0x800) {
                length += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(text.charAt(i + 1))) {
                length += 4;
                i++;
            } else {
                length += 3;
            }
        }
        return length;
    }
}
