package dev.stillpoint.properties.kit.selftest;

import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import java.util.Base64;
import java.util.Iterator;
import java.util.Map;

/** Writes an item as DynamoDB JSON, for the reference adapter's stored items (and their byte budget). */
final class DynamoJson {

    private DynamoJson() {
    }

    static String write(Item item) {
        StringBuilder out = new StringBuilder();
        map(out, item.attributes());
        return out.toString();
    }

    private static void map(StringBuilder out, Map<String, AttributeValue> values) {
        out.append('{');
        Iterator<Map.Entry<String, AttributeValue>> it = values.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<String, AttributeValue> e = it.next();
            string(out, e.getKey());
            out.append(':');
            value(out, e.getValue());
            if (it.hasNext()) {
                out.append(',');
            }
        }
        out.append('}');
    }

    private static void value(StringBuilder out, AttributeValue v) {
        out.append("{\"").append(v.typeName()).append("\":");
        if (v instanceof AttributeValue.S s) {
            string(out, s.value());
        } else if (v instanceof AttributeValue.N n) {
            string(out, n.text());
        } else if (v instanceof AttributeValue.B b) {
            string(out, Base64.getEncoder().encodeToString(b.bytes()));
        } else if (v instanceof AttributeValue.Bool bool) {
            out.append(bool.value());
        } else if (v instanceof AttributeValue.Null) {
            out.append("true");
        } else if (v instanceof AttributeValue.L l) {
            out.append('[');
            for (int i = 0; i < l.values().size(); i++) {
                out.append(i == 0 ? "" : ",");
                value(out, l.values().get(i));
            }
            out.append(']');
        } else if (v instanceof AttributeValue.M m) {
            map(out, m.values());
        } else if (v instanceof AttributeValue.SS ss) {
            strings(out, ss.values());
        } else if (v instanceof AttributeValue.NS ns) {
            strings(out, ns.values());
        } else if (v instanceof AttributeValue.BS bs) {
            out.append('[');
            boolean first = true;
            for (byte[] member : bs.values()) {
                out.append(first ? "" : ",");
                first = false;
                string(out, Base64.getEncoder().encodeToString(member));
            }
            out.append(']');
        }
        out.append('}');
    }

    private static void strings(StringBuilder out, Iterable<String> members) {
        out.append('[');
        boolean first = true;
        for (String member : members) {
            out.append(first ? "" : ",");
            first = false;
            string(out, member);
        }
        out.append(']');
    }

    private static void string(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
