package dev.stillpoint.backup;

import dev.stillpoint.backup.CheckedChanges.Change;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.itemjson.ItemJson;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The checked changes of an incremental export [I3], kept in a private temporary file while the input is
 * checked and read back for the apply. Memory then stays bounded whatever the window's size (a window of
 * every key of a large table would otherwise be held whole), and the apply writes exactly what was checked:
 * the input may change on disk after its check, this copy does not.
 *
 * <p>One line a change: {@code P} or {@code D}, the keys as item JSON, and for a put a tab and the new image.
 * Item JSON escapes every control character, so neither a tab nor a line break occurs inside either part.
 */
final class ChangeSpool implements AutoCloseable {
    private final Path file;
    private BufferedWriter out;
    private long puts;
    private long tombstones;

    ChangeSpool() {
        try {
            file = Files.createTempFile("stillpoint-changes-", ".spool");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary file for the checked changes", e);
        }
        try {
            out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            deleteQuietly();
            throw new UncheckedIOException("cannot write the temporary file " + file, e);
        }
    }

    /** Adds one checked change: a put when {@code newImage} is present, a tombstone otherwise. */
    void add(Item keys, Optional<Item> newImage) {
        try {
            out.write(newImage.isPresent() ? 'P' : 'D');
            out.write(ItemJson.encode(keys));
            if (newImage.isPresent()) {
                out.write('\t');
                out.write(ItemJson.encode(newImage.get()));
                puts++;
            } else {
                tombstones++;
            }
            out.write('\n');
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the temporary file " + file, e);
        }
    }

    /** Ends the writing; the changes can then be read back, as often as asked. */
    ChangeSpool finished() {
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the temporary file " + file, e);
        } finally {
            out = null;
        }
        return this;
    }

    long puts() {
        return puts;
    }

    long tombstones() {
        return tombstones;
    }

    /** Hands every change to {@code each}, in the input's order. */
    void forEach(Consumer<Change> each) {
        if (out != null) {
            throw new IllegalStateException("the changes are read back only once all are written");
        }
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                int tab = line.indexOf('\t');
                Item keys = ItemJson.decode(tab < 0 ? line.substring(1) : line.substring(1, tab));
                each.accept(new Change(keys, line.charAt(0) == 'P'
                        ? Optional.of(ItemJson.decode(line.substring(tab + 1))) : Optional.empty()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the temporary file " + file, e);
        }
    }

    /** Removes the file; the changes cannot be read after. */
    @Override
    public void close() {
        if (out != null) {
            try {
                out.close();
            } catch (IOException e) {
                // the file is deleted next; a failed flush of a copy nobody reads loses nothing
            }
            out = null;
        }
        deleteQuietly();
    }

    private void deleteQuietly() {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            file.toFile().deleteOnExit(); // a temporary file left to the JVM's exit rather than a failure
        }
    }
}
