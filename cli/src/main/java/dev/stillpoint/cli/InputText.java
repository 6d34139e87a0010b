package dev.stillpoint.cli;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.itemjson.ItemJson;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A key read from a file or stdin ({@code -}) rather than the command line [X4], whole: a key is small. Items,
 * which may be many, are {@link ItemInput}'s, read a line at a time. A refusal names the input.
 *
 * @param name the input as a user reads it: the file's path, or {@code stdin}
 * @param text the whole text
 */
record InputText(String name, String text) {

    /** The most a key's text is read to: a key is at most 3 KB of values (2,048 + 1,024 bytes) and two names. */
    static final int MAX_KEY_BYTES = 1 << 20;

    /**
     * Reads {@code file}, or {@code stdin} when it is {@code -}, up to {@link #MAX_KEY_BYTES}: more is refused
     * unread. An unreadable file is a usage error.
     */
    static InputText read(String file, InputStream stdin) {
        if ("-".equals(file)) {
            return readUpToLimit("stdin", stdin);
        }
        Path path = Path.of(file);
        if (!Files.isRegularFile(path)) {
            throw new CliFailure(ExitCodes.USAGE, "input file " + file
                    + (Files.exists(path) ? " is not a regular file" : " does not exist"));
        }
        try (InputStream in = Files.newInputStream(path)) {
            return readUpToLimit(file, in);
        } catch (IOException e) {
            throw new CliFailure(ExitCodes.USAGE, "cannot read input file " + file + ": " + e.getMessage(), e);
        }
    }

    private static InputText readUpToLimit(String name, InputStream in) {
        byte[] bytes;
        try {
            bytes = in.readNBytes(MAX_KEY_BYTES + 1);
        } catch (IOException e) {
            throw new CliFailure(ExitCodes.USAGE, "cannot read " + name + ": " + e.getMessage(), e);
        }
        if (bytes.length > MAX_KEY_BYTES) {
            throw StorageException.validation(name + " holds over " + MAX_KEY_BYTES + " bytes: no key is that long");
        }
        return new InputText(name, new String(bytes, StandardCharsets.UTF_8));
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
}
