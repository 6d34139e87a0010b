package dev.stillpoint.cli;

import dev.stillpoint.backup.TextLines;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.itemjson.ItemJson;
import java.io.IOException;
import java.io.InputStream;
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
    static final int MAX_LINE_CHARS = TextLines.MAX_LINE_CHARS;

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
                throw new CliFailure(ExitCodes.USAGE, "cannot copy stdin to a temporary file to read it twice: "
                        + e.getMessage(), e);
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
     */
    void check() {
        read((item, where) -> { });
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
        try (InputStream in = Files.newInputStream(file)) {
            TextLines lines = TextLines.utf8(in);
            String text;
            long number = 0;
            boolean first = true;
            while ((text = lines.next()) != null) {
                number++;
                if (lines.tooLong()) {
                    throw StorageException.validation(name + " line " + number + " is over " + MAX_LINE_CHARS
                            + " characters: more than any item DynamoDB accepts takes");
                }
                if (text.isBlank()) {
                    continue;
                }
                Item item;
                try {
                    item = ItemJson.decode(text);
                } catch (StorageException e) {
                    if (first) {
                        // Its first line is no item on its own: the input is one item spread over lines.
                        wholeAt = name + " line " + number;
                        whole = wholeItem(e);
                        sink.accept(whole, wholeAt);
                        return;
                    }
                    throw InputText.located(name + " line " + number, e);
                }
                first = false;
                sink.accept(item, name + " line " + number);
            }
            if (lines.notUtf8()) {
                throw StorageException.validation(name + " line " + (number + 1) + " is not UTF-8 text");
            }
            if (first) {
                throw StorageException.validation(name + " holds no item");
            }
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
}
