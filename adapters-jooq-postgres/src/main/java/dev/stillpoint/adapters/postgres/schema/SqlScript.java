package dev.stillpoint.adapters.postgres.schema;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a PostgreSQL script into statements at the semicolons outside string literals, quoted
 * identifiers, comments and dollar-quoted bodies. Comments stay in the statement text. A chunk
 * holding nothing but comments and whitespace is not a statement.
 */
public final class SqlScript {

    private SqlScript() {
    }

    public static List<String> statements(String script) {
        List<String> statements = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        boolean hasCode = false;
        int i = 0;
        int n = script.length();
        while (i < n) {
            char c = script.charAt(i);
            int end;
            if (c == '-' && i + 1 < n && script.charAt(i + 1) == '-') {
                end = script.indexOf('\n', i);
                end = end < 0 ? n : end + 1;
                current.append(script, i, end);
                i = end;
                continue;
            }
            if (c == '/' && i + 1 < n && script.charAt(i + 1) == '*') {
                end = script.indexOf("*/", i + 2);
                if (end < 0) {
                    throw new IllegalArgumentException("unterminated block comment at offset " + i);
                }
                current.append(script, i, end + 2);
                i = end + 2;
                continue;
            }
            if (c == ';') {
                flush(current, hasCode, statements);
                hasCode = false;
                i++;
                continue;
            }
            if (c == '\'' || c == '"') {
                end = i + 1;
                while (true) {
                    end = script.indexOf(c, end);
                    if (end < 0) {
                        throw new IllegalArgumentException("unterminated quote " + c + " at offset " + i);
                    }
                    if (end + 1 < n && script.charAt(end + 1) == c) {
                        end += 2;
                        continue;
                    }
                    break;
                }
                current.append(script, i, end + 1);
                hasCode = true;
                i = end + 1;
                continue;
            }
            if (c == '$') {
                int tagEnd = dollarTagEnd(script, i);
                if (tagEnd > 0) {
                    String tag = script.substring(i, tagEnd + 1);
                    end = script.indexOf(tag, tagEnd + 1);
                    if (end < 0) {
                        throw new IllegalArgumentException("unterminated dollar quote " + tag + " at offset " + i);
                    }
                    current.append(script, i, end + tag.length());
                    hasCode = true;
                    i = end + tag.length();
                    continue;
                }
            }
            current.append(c);
            hasCode |= !Character.isWhitespace(c);
            i++;
        }
        flush(current, hasCode, statements);
        return List.copyOf(statements);
    }

    /** The index of the closing '$' of a dollar-quote tag starting at {@code start}, or -1. */
    private static int dollarTagEnd(String script, int start) {
        if (start > 0 && (Character.isLetterOrDigit(script.charAt(start - 1)) || script.charAt(start - 1) == '_')) {
            return -1;
        }
        int j = start + 1;
        while (j < script.length()) {
            char d = script.charAt(j);
            if (d == '$') {
                return j;
            }
            if (!(Character.isLetter(d) || d == '_' || (j > start + 1 && Character.isDigit(d)))) {
                return -1;
            }
            j++;
        }
        return -1;
    }

    private static void flush(StringBuilder current, boolean hasCode, List<String> statements) {
        if (hasCode) {
            statements.add(current.toString().strip());
        }
        current.setLength(0);
    }
}
