package dev.stillpoint.domain.request;

import dev.stillpoint.domain.item.AttributeValue;
import java.util.Base64;
import java.util.Locale;

/** How a rule shows the offending value in its message: quoted, cut, control characters spelled out. */
final class Shown {
    private static final int SHOWN_CHARS = 64;

    private Shown() {
    }

    static String text(String text) {
        StringBuilder out = new StringBuilder("'");
        int end = Math.min(text.length(), SHOWN_CHARS);
        for (int i = 0; i < end; i++) {
            char c = text.charAt(i);
            if (c < 0x20 || Character.isSurrogate(c)) {
                out.append(String.format(Locale.ROOT, "\\u%04X", (int) c));
            } else {
                out.append(c);
            }
        }
        out.append('\'');
        if (text.length() > SHOWN_CHARS) {
            out.append("... (").append(text.length()).append(" characters)");
        }
        return out.toString();
    }

    /** A scalar value as its type and its text (B in base64), quoted and cut as {@link #text} does; other types by name. */
    static String value(AttributeValue value) {
        if (value instanceof AttributeValue.S s) {
            return "S " + text(s.value());
        }
        if (value instanceof AttributeValue.N n) {
            return "N " + text(n.text());
        }
        if (value instanceof AttributeValue.B b) {
            return "B " + text(Base64.getEncoder().encodeToString(b.bytes()));
        }
        return value.typeName();
    }

    static String character(char c) {
        return c < 0x20 || c > 0x7e ? String.format(Locale.ROOT, "U+%04X", (int) c) : "'" + c + "'";
    }
}
