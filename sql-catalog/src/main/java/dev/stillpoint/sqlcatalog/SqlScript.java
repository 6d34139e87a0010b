package dev.stillpoint.sqlcatalog;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Splits an SQL script into statements at the semicolons outside string literals, quoted identifiers
 * and comments, by each database's lexical rules ({@link Lexis}). Comments stay in the statement text
 * (the databases ignore them), so the {@code -- [jooq ignore start]} regions that jOOQ's code generator
 * skips are executed as written. A chunk holding nothing but comments and whitespace is not a statement.
 * Written by hand because no maintained library splits scripts with both SQLite's trigger bodies and
 * PostgreSQL's dollar quotes, and the migrations need exactly these two.
 */
public final class SqlScript {

    /** The lexical rules that differ between the two databases. */
    public enum Lexis {
        /**
         * SQLite: identifiers also quoted by {@code `...`} and {@code [...]}; a {@code CREATE TRIGGER}
         * runs to the {@code END} of its body (the semicolons between its {@code BEGIN} and {@code END}
         * do not end it; a trigger body holds no nested {@code BEGIN ... END}), and a trigger without its
         * {@code END} is refused rather than cut in pieces.
         */
        SQLITE,
        /** PostgreSQL: dollar-quoted bodies ({@code $$...$$}, {@code $tag$...$tag$}) are kept whole. */
        POSTGRES
    }

    private static final Pattern TRIGGER =
            Pattern.compile("CREATE\\s+(TEMP\\s+|TEMPORARY\\s+)?TRIGGER\\b.*", Pattern.DOTALL);
    private static final Pattern TRIGGER_END = Pattern.compile(".*\\bEND", Pattern.DOTALL);

    private SqlScript() {
    }

    /**
     * The script's statements, in order, each stripped of surrounding whitespace.
     *
     * @param script the script's text
     * @param lexis the database's lexical rules
     * @return the statements
     * @throws IllegalArgumentException for an unterminated comment, quote or dollar quote, or (SQLite) a
     *     trigger without its END, naming the offset where it began
     */
    public static List<String> statements(String script, Lexis lexis) {
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
                continue;
            }
            if (c == '/' && i + 1 < n && script.charAt(i + 1) == '*') {
                int end = script.indexOf("*/", i + 2);
                if (end < 0) {
                    throw new IllegalArgumentException("unterminated block comment at offset " + i);
                }
                current.append(script, i, end + 2);
                code.append(' ');
                i = end + 2;
                continue;
            }
            int quoted = -1;
            if (c == '\'' || c == '"' || (lexis == Lexis.SQLITE && (c == '`' || c == '['))) {
                quoted = quoteEnd(script, i, c == '[' ? ']' : c);
            } else if (c == '$' && lexis == Lexis.POSTGRES) {
                quoted = dollarQuoteEnd(script, i);
            }
            if (quoted > 0) {
                current.append(script, i, quoted);
                code.append(script, i, quoted);
                i = quoted;
                continue;
            }
            if (c == ';' && !(lexis == Lexis.SQLITE && insideTrigger(code))) {
                flush(current, code, statements, lexis);
                i++;
                continue;
            }
            current.append(c);
            code.append(c);
            i++;
        }
        flush(current, code, statements, lexis);
        return List.copyOf(statements);
    }

    /** The offset just past the quote that closes the one opening at {@code start} (a doubled close is kept). */
    private static int quoteEnd(String script, int start, char close) {
        int end = start + 1;
        while (true) {
            end = script.indexOf(close, end);
            if (end < 0) {
                throw new IllegalArgumentException("unterminated quote " + script.charAt(start) + " at offset " + start);
            }
            if (close != ']' && end + 1 < script.length() && script.charAt(end + 1) == close) {
                end += 2;
                continue;
            }
            return end + 1;
        }
    }

    /** The offset just past a dollar-quoted body opening at {@code start}, or -1 when no tag opens there. */
    private static int dollarQuoteEnd(String script, int start) {
        if (start > 0 && (Character.isLetterOrDigit(script.charAt(start - 1)) || script.charAt(start - 1) == '_')) {
            return -1;
        }
        int j = start + 1;
        while (j < script.length()) {
            char d = script.charAt(j);
            if (d == '$') {
                String tag = script.substring(start, j + 1);
                int end = script.indexOf(tag, j + 1);
                if (end < 0) {
                    throw new IllegalArgumentException("unterminated dollar quote " + tag + " at offset " + start);
                }
                return end + tag.length();
            }
            if (!(Character.isLetter(d) || d == '_' || (j > start + 1 && Character.isDigit(d)))) {
                return -1;
            }
            j++;
        }
        return -1;
    }

    /** A CREATE TRIGGER whose body has not reached its END: its semicolons belong to it. */
    private static boolean insideTrigger(StringBuilder code) {
        String upper = code.toString().strip().toUpperCase(Locale.ROOT);
        return TRIGGER.matcher(upper).matches() && !TRIGGER_END.matcher(upper).matches();
    }

    private static void flush(StringBuilder current, StringBuilder code, List<String> statements, Lexis lexis) {
        String codeOnly = code.toString().strip();
        if (!codeOnly.isEmpty()) {
            if (lexis == Lexis.SQLITE && insideTrigger(code)) {
                throw new IllegalArgumentException("CREATE TRIGGER without the END of its body");
            }
            statements.add(current.toString().strip());
        }
        current.setLength(0);
        code.setLength(0);
    }
}
