package dev.stillpoint.adapters.sqlite.schema;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Splits an SQL script into statements at the semicolons that are outside string literals, quoted
 * identifiers and comments. Comments stay in the statement text (SQLite ignores them), so the
 * {@code -- [jooq ignore start]} regions that jOOQ's code generator skips are executed as written.
 * A chunk holding nothing but comments and whitespace is not a statement.
 *
 * <p>A {@code CREATE TRIGGER} statement runs to the {@code END} of its body: the semicolons between its
 * {@code BEGIN} and {@code END} do not end it (SQLite's own rule; a trigger body holds no nested
 * {@code BEGIN ... END}). A trigger without its {@code END} is refused rather than cut in pieces.
 */
public final class SqlScript {

    private static final Pattern TRIGGER =
            Pattern.compile("CREATE\\s+(TEMP\\s+|TEMPORARY\\s+)?TRIGGER\\b.*", Pattern.DOTALL);
    private static final Pattern TRIGGER_END = Pattern.compile(".*\\bEND", Pattern.DOTALL);

    private SqlScript() {
    }

    public static List<String> statements(String script) {
        List<String> statements = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        StringBuilder code = new StringBuilder();
        int i = 0;
        int n = script.length();
        while (i < n) {
            char c = script.charAt(i);
            if (c == '-' && i + 1 < n && script.charAt(i + 1) == '-') {
                int end = script.indexOf('\n', i);
                end = end < 0 ? n : end + 1;
                current.append(script, i, end);
                code.append(' ');
                i = end;
            } else if (c == '/' && i + 1 < n && script.charAt(i + 1) == '*') {
                int end = script.indexOf("*/", i + 2);
                if (end < 0) {
                    throw new IllegalArgumentException("unterminated block comment at offset " + i);
                }
                current.append(script, i, end + 2);
                code.append(' ');
                i = end + 2;
            } else if (c == '\'' || c == '"' || c == '`' || c == '[') {
                char close = c == '[' ? ']' : c;
                int end = i + 1;
                while (true) {
                    end = script.indexOf(close, end);
                    if (end < 0) {
                        throw new IllegalArgumentException("unterminated quote " + c + " at offset " + i);
                    }
                    if (close != ']' && end + 1 < n && script.charAt(end + 1) == close) {
                        end += 2;
                        continue;
                    }
                    break;
                }
                current.append(script, i, end + 1);
                code.append(script, i, end + 1);
                i = end + 1;
            } else if (c == ';' && insideTrigger(code)) {
                current.append(c);
                code.append(c);
                i++;
            } else if (c == ';') {
                flush(current, code, statements);
                i++;
            } else {
                current.append(c);
                code.append(c);
                i++;
            }
        }
        flush(current, code, statements);
        return List.copyOf(statements);
    }

    /** A CREATE TRIGGER whose body has not reached its END: its semicolons belong to it. */
    private static boolean insideTrigger(StringBuilder code) {
        String upper = code.toString().strip().toUpperCase(Locale.ROOT);
        return TRIGGER.matcher(upper).matches() && !TRIGGER_END.matcher(upper).matches();
    }

    private static void flush(StringBuilder current, StringBuilder code, List<String> statements) {
        String codeOnly = code.toString().strip();
        if (!codeOnly.isEmpty()) {
            String upper = codeOnly.toUpperCase(Locale.ROOT);
            if (TRIGGER.matcher(upper).matches() && !TRIGGER_END.matcher(upper).matches()) {
                throw new IllegalArgumentException("CREATE TRIGGER without the END of its body");
            }
            statements.add(current.toString().strip());
        }
        current.setLength(0);
        code.setLength(0);
    }
}
