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
