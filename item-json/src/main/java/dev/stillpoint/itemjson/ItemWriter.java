package dev.stillpoint.itemjson;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SegmentedStringWriter;
import com.fasterxml.jackson.core.util.BufferRecycler;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import java.io.IOException;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * Writes an item's canonical DynamoDB JSON with jackson-core's generator: no whitespace, attributes
 * and map entries in the item's order, strings escaped per RFC 8259 (the generator's standard
 * escapes, with lower-case hex, set up by {@link ItemJson}), N texts as held, B as the JDK's
 * standard padded base64.
 */
final class ItemWriter {
    private static final Base64.Encoder BASE64 = Base64.getEncoder();

    private final JsonGenerator out;

    private ItemWriter(JsonGenerator out) {
        this.out = out;
    }

    static String write(JsonFactory json, Item item) {
        BufferRecycler buffers = json._getBufferRecycler();
        try (SegmentedStringWriter text = new SegmentedStringWriter(buffers)) {
            try (JsonGenerator out = json.createGenerator(text)) {
                new ItemWriter(out).item(item);
            }
            return text.getAndClear();
        } catch (IOException e) {
            // The target is memory: the generator has nothing to fail on but its own limits, which
            // an item within MAX_NESTING cannot reach.
            throw StorageException.internal("the item JSON writer failed: " + e.getMessage(), e);
        } finally {
            buffers.releaseToPool();
        }
    }

    private void item(Item item) throws IOException {
        out.writeStartObject();
        for (Map.Entry<String, AttributeValue> e : item.attributes().entrySet()) {
            out.writeFieldName(e.getKey());
            value(e.getValue(), 0, e.getKey());
        }
        out.writeEndObject();
    }

    private void value(AttributeValue value, int depth, String attribute) throws IOException {
        out.writeStartObject();
        if (value instanceof AttributeValue.S s) {
            out.writeFieldName(TypeTag.S.field);
            out.writeString(s.value());
        } else if (value instanceof AttributeValue.N n) {
            out.writeFieldName(TypeTag.N.field);
            out.writeString(n.text());
        } else if (value instanceof AttributeValue.M m) {
            checkNesting(depth, attribute);
            out.writeFieldName(TypeTag.M.field);
            out.writeStartObject();
            for (Map.Entry<String, AttributeValue> e : m.values().entrySet()) {
                out.writeFieldName(e.getKey());
                value(e.getValue(), depth + 1, attribute);
            }
            out.writeEndObject();
        } else if (value instanceof AttributeValue.L l) {
            checkNesting(depth, attribute);
            out.writeFieldName(TypeTag.L.field);
            out.writeStartArray();
            List<AttributeValue> values = l.values();
            for (int i = 0; i < values.size(); i++) {
                value(values.get(i), depth + 1, attribute);
            }
            out.writeEndArray();
        } else if (value instanceof AttributeValue.Bool b) {
            out.writeFieldName(TypeTag.BOOL.field);
            out.writeBoolean(b.value());
        } else if (value instanceof AttributeValue.Null) {
            out.writeFieldName(TypeTag.NULL.field);
            out.writeBoolean(true);
        } else if (value instanceof AttributeValue.B b) {
            out.writeFieldName(TypeTag.B.field);
            out.writeString(BASE64.encodeToString(b.bytes()));
        } else if (value instanceof AttributeValue.SS ss) {
            out.writeFieldName(TypeTag.SS.field);
            strings(ss.values());
        } else if (value instanceof AttributeValue.NS ns) {
            out.writeFieldName(TypeTag.NS.field);
            strings(ns.values());
        } else {
            out.writeFieldName(TypeTag.BS.field);
            out.writeStartArray();
            for (byte[] member : ((AttributeValue.BS) value).values()) {
                out.writeString(BASE64.encodeToString(member));
            }
            out.writeEndArray();
        }
        out.writeEndObject();
    }

    private void strings(Iterable<String> members) throws IOException {
        out.writeStartArray();
        for (String member : members) {
            out.writeString(member);
        }
        out.writeEndArray();
    }

    private static void checkNesting(int depth, String attribute) {
        if (depth >= ItemJson.MAX_NESTING) {
            throw StorageException.validation("item attribute " + Refusal.show(attribute)
                    + " nests L and M values more than " + ItemJson.MAX_NESTING + " levels deep");
        }
    }
}
