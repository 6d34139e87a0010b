package dev.stillpoint.backup;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Lines of UTF-8 text with a bound on each, as restore's data files and the CLI's item input read them: ended
 * as {@link BufferedReader#readLine} ends them (a line feed, a carriage return, or both); the first bytes that
 * are not UTF-8 end them, noted by {@link #notUtf8}. A line longer than {@link #MAX_LINE_CHARS} is read to its
 * end without being kept: it is answered empty with {@link #tooLong} set. Written by hand because
 * {@code readLine} has no bound: it holds a line of any length whole.
 */
public final class TextLines {

    /** The longest line kept, in characters: 16 Mi, far past the text of any item DynamoDB accepts. */
    public static final int MAX_LINE_CHARS = 16 << 20;

    private final BufferedReader reader;
    private final char[] buffer = new char[1 << 16];
    private int position;
    private int limit;
    private boolean skipLineFeed;
    private boolean notUtf8;
    private boolean tooLong;

    private TextLines(BufferedReader reader) {
        this.reader = reader;
    }

    /**
     * The lines of {@code in}, decoded strictly: bytes that are not UTF-8 end them.
     *
     * @param in the bytes; the caller closes it
     * @return the lines
     */
    public static TextLines utf8(InputStream in) {
        return new TextLines(new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT)), 1 << 16));
    }

    /**
     * The next line, without its line break; empty for one over {@link #MAX_LINE_CHARS} ({@link #tooLong} then
     * true).
     *
     * @return the line, or null at the end of the text or at its first bytes that are not UTF-8
     * @throws IOException when the bytes cannot be read
     */
    public String next() throws IOException {
        try {
            return read();
        } catch (CharacterCodingException e) {
            notUtf8 = true;
            return null;
        }
    }

    /**
     * Whether the line {@link #next} answered last was longer than {@link #MAX_LINE_CHARS}.
     *
     * @return true when it was, and so was answered empty
     */
    public boolean tooLong() {
        return tooLong;
    }

    /**
     * Whether the lines ended at bytes that are not UTF-8 rather than at the end of the text.
     *
     * @return true when they did
     */
    public boolean notUtf8() {
        return notUtf8;
    }

    private String read() throws IOException {
        tooLong = false;
        StringBuilder text = new StringBuilder();
        boolean any = false;
        while (true) {
            if (position == limit) {
                limit = reader.read(buffer, 0, buffer.length);
                position = 0;
                if (limit <= 0) {
                    limit = 0;
                    return any ? finish(text) : null;
                }
            }
            if (skipLineFeed) {
                skipLineFeed = false;
                if (buffer[position] == '\n') {
                    position++;
                    continue;
                }
            }
            any = true;
            int start = position;
            while (position < limit && buffer[position] != '\n' && buffer[position] != '\r') {
                position++;
            }
            if (!tooLong) {
                int room = MAX_LINE_CHARS - text.length();
                text.append(buffer, start, Math.min(position - start, room));
                tooLong = position - start > room;
            }
            if (position < limit) {
                skipLineFeed = buffer[position] == '\r';
                position++;
                return finish(text);
            }
        }
    }

    private String finish(StringBuilder text) {
        return tooLong ? "" : text.toString();
    }
}
