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
 * <p>Not supported: {@code CREATE TRIGGER}, whose body contains semicolons; it is refused rather than
 * cut in pieces.
 */
public final class SqlScript {

    private static final Pattern TRIGGER =
            Pattern.compile("CREATE\\s+(TEMP\\s+|TEMPORARY\\s+)?TRIGGER\\b.*", Pattern.DOTALL);

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

    private static void flush(StringBuilder current, StringBuilder code, List<String> statements) {
        String codeOnly = code.toString().strip();
        if (!codeOnly.isEmpty()) {
            if (TRIGGER.matcher(codeOnly.toUpperCase(Locale.ROOT)).matches()) {
                throw new IllegalArgumentException("CREATE TRIGGER is not supported in migration scripts");
            }
            statements.add(current.toString().strip());
        }
        current.setLength(0);
        code.setLength(0);
    }
}
