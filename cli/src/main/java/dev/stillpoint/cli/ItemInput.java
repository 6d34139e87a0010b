package dev.stillpoint.cli;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.itemjson.ItemJson;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The items of a file or stdin ({@code -}) for {@code put --item-file} [X4], read twice with one line in memory:
 * {@link #check} decodes every item before anything is written, then {@link #forEach} decodes them again to be
 * written. Holding them all took several times the input's size in heap, so a large JSON lines file ended in an
 * OutOfMemoryError's stack trace. Stdin, which cannot be read twice, is copied to a private temporary file first,
 * removed on {@link #close}. The input holds one item (spread over lines or not) or JSON lines, one item a line,
 * blank lines skipped; a refusal names the input and its line.
 */
final class ItemInput implements AutoCloseable {

    /** The longest line read: far past any item DynamoDB accepts (400 KB), short of exhausting a heap. */
    static final int MAX_LINE_CHARS = 16 << 20;

    /** Told each item of the input with where it is, for the refusal that names it. */
    interface Sink {
        void accept(Item item, String where);
    }

    private final String name;
    private final Path file;
    private final boolean spooled;
    /** The one item of an input spread over lines, once {@link #check} found it so; null for JSON lines. */
    private Item whole;
    /** Where that item starts, as a refusal names it. */
    private String wholeAt;

    private ItemInput(String name, Path file, boolean spooled) {
        this.name = name;
        this.file = file;
        this.spooled = spooled;
    }

    /** The input {@code file}, or stdin copied aside when it is {@code -}; an unreadable file is a usage error. */
    static ItemInput open(String file, InputStream stdin) {
        if ("-".equals(file)) {
            Path copy = null;
            try {
                copy = Files.createTempFile("stillpoint-put-", ".jsonl");  // created private (0600)
                Files.copy(stdin, copy, StandardCopyOption.REPLACE_EXISTING);
                return new ItemInput("stdin", copy, true);
            } catch (IOException e) {
                deleteQuietly(copy);
                throw new CliFailure(ExitCodes.USAGE, "cannot read stdin: " + e.getMessage(), e);
            }
        }
        Path path = Path.of(file);
        if (!Files.isRegularFile(path)) {
            throw new CliFailure(ExitCodes.USAGE, "input file " + file
                    + (Files.exists(path) ? " is not a regular file" : " does not exist"));
        }
        return new ItemInput(file, path, false);
    }

    /**
     * Decodes every item, writing nothing: a line that is no item is a validation error naming the input and the
     * line. An input whose first line is no item on its own is taken as one item spread over lines.
     *
     * @return how many items the input holds
     */
    long check() {
        long[] count = {0};
        read((item, where) -> count[0]++);
        return count[0];
    }

    /** Decodes the items again, in order, and hands each to {@code sink}; call after {@link #check}. */
    void forEach(Sink sink) {
        read(sink);
    }

    private void read(Sink sink) {
        if (whole != null) {
            sink.accept(whole, wholeAt);
            return;
        }
        try (Lines lines = new Lines(Files.newBufferedReader(file, StandardCharsets.UTF_8))) {
            String line;
            boolean first = true;
            while ((line = lines.next()) != null) {
                if (line.isBlank()) {
                    continue;
                }
                Item item;
                try {
                    item = ItemJson.decode(line);
                } catch (StorageException e) {
                    if (first) {
                        // Its first line is no item on its own: the input is one item spread over lines.
                        wholeAt = name + " line " + lines.number();
                        whole = wholeItem(e);
                        sink.accept(whole, wholeAt);
                        return;
                    }
                    throw InputText.located(name + " line " + lines.number(), e);
                }
                first = false;
                sink.accept(item, name + " line " + lines.number());
            }
            if (first) {
                throw StorageException.validation(name + " holds no item");
            }
        } catch (CharacterCodingException e) {
            throw StorageException.validation(name + " is not UTF-8 text: " + e.getMessage());
        } catch (IOException e) {
            throw new CliFailure(ExitCodes.USAGE, "cannot read " + name + ": " + e.getMessage(), e);
        }
    }

    /** The input as one item; refused, naming the input, when it is none (or too long to be one). */
    private Item wholeItem(StorageException firstLine) throws IOException {
        long bytes = Files.size(file);
        if (bytes > MAX_LINE_CHARS) {
            throw InputText.located(wholeAt + " (the input, " + bytes + " bytes, is too long to be one item spread"
                    + " over lines)", firstLine);
        }
        try {
            return ItemJson.decode(Files.readString(file, StandardCharsets.UTF_8));
        } catch (StorageException e) {
            throw InputText.located(name, e);
        }
    }

    @Override
    public void close() {
        if (spooled) {
            deleteQuietly(file);
        }
    }

    private static void deleteQuietly(Path path) {
        if (path != null) {
            try {
                Files.deleteIfExists(path);
            } catch (IOException e) {
                // A temporary file left behind is the system's to clean; the put's outcome stands.
            }
        }
    }

    /**
     * Lines as {@link String#lines} splits them (at LF, CR or CRLF), each at most {@link #MAX_LINE_CHARS} long: a
     * longer one is refused by number before it fills the heap.
     */
    private final class Lines implements AutoCloseable {
        private final Reader reader;
        private final char[] buffer = new char[8192];
        private final StringBuilder line = new StringBuilder();
        private int position;
        private int limit;
        private long number;
        private boolean afterCr;

        Lines(Reader reader) {
            this.reader = reader;
        }

        /** The next line, or null at the end. */
        String next() throws IOException {
            line.setLength(0);
            boolean any = false;
            while (true) {
                if (position == limit) {
                    limit = reader.read(buffer, 0, buffer.length);
                    position = 0;
                    if (limit <= 0) {
                        limit = 0;
                        if (!any) {
                            return null;
                        }
                        number++;
                        return line.toString();
                    }
                }
                char c = buffer[position++];
                if (afterCr) {
                    afterCr = false;
                    if (c == '\n') {
                        continue;
                    }
                }
                any = true;
                if (c == '\n' || c == '\r') {
                    afterCr = c == '\r';
                    number++;
                    return line.toString();
                }
                if (line.length() == MAX_LINE_CHARS) {
                    throw StorageException.validation(name + " line " + (number + 1) + " is over " + MAX_LINE_CHARS
                            + " characters: more than any item DynamoDB accepts takes");
                }
                line.append(c);
            }
        }

        /** The number of the line {@link #next} returned last (1-based). */
        long number() {
            return number;
        }

        @Override
        public void close() throws IOException {
            reader.close();
        }
    }
}
