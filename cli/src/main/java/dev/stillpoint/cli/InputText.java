package dev.stillpoint.cli;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.itemjson.ItemJson;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Items and keys read from a file or stdin ({@code -}) rather than the command line, where the
 * system's argument limit (about 128 KB for one argument on Linux) ends an item with "Argument list
 * too long" [X4]. A text holds one item (spread over lines or not) or JSON lines: one item a line,
 * blank lines skipped. A refusal names the input and its line.
 *
 * @param name the input as a user reads it: the file's path, or {@code stdin}
 * @param text the whole text
 */
record InputText(String name, String text) {

    /** An item of the input with the line it starts on (1-based). */
    record Located(Item item, int line) {
    }

    /** Reads {@code file}, or all of {@code stdin} when it is {@code -}; an unreadable file is a usage error. */
    static InputText read(String file, InputStream stdin) {
        try {
            if ("-".equals(file)) {
                return new InputText("stdin", new String(stdin.readAllBytes(), StandardCharsets.UTF_8));
            }
            Path path = Path.of(file);
            if (!Files.isRegularFile(path)) {
                throw new CliFailure(ExitCodes.USAGE, "input file " + file
                        + (Files.exists(path) ? " is not a regular file" : " does not exist"));
            }
            return new InputText(file, Files.readString(path, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new CliFailure(ExitCodes.USAGE, "cannot read " + ("-".equals(file) ? "stdin" : "input file " + file)
                    + ": " + e.getMessage(), e);
        }
    }

    /**
     * The items the text holds: the whole text as one item when it parses as one, otherwise one item a
     * non-blank line. A line that is no item is a validation error naming the input and the line.
     */
    List<Located> items() {
        List<String> lines = text.lines().toList();
        int first = firstNonBlank(lines);
        if (first < 0) {
            throw StorageException.validation(name + " holds no item");
        }
        StorageException whole;
        try {
            return List.of(new Located(ItemJson.decode(text), first + 1));
        } catch (StorageException e) {
            whole = e;
        }
        try {
            ItemJson.decode(lines.get(first));
        } catch (StorageException e) {
            // Its first line is no item on its own: the text is one item spread over lines, and broken.
            throw located(name, whole);
        }
        List<Located> items = new ArrayList<>();
        for (int i = first; i < lines.size(); i++) {
            if (lines.get(i).isBlank()) {
                continue;
            }
            try {
                items.add(new Located(ItemJson.decode(lines.get(i)), i + 1));
            } catch (StorageException e) {
                throw located(name + " line " + (i + 1), e);
            }
        }
        return items;
    }

    /** The one item the text holds (a key is given as an item of its attributes). */
    Item single() {
        if (text.isBlank()) {
            throw StorageException.validation(name + " holds no key");
        }
        try {
            return ItemJson.decode(text);
        } catch (StorageException e) {
            throw located(name, e);
        }
    }

    /** {@code e} with {@code where} before its message, its reason kept (a refusal stays a refusal). */
    static StorageException located(String where, StorageException e) {
        return new StorageException(e.reason(),
                where + ": " + e.getMessage(), e);
    }

    private static int firstNonBlank(List<String> lines) {
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).isBlank()) {
                return i;
            }
        }
        return -1;
    }
}
