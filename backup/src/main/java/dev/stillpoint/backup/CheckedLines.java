package dev.stillpoint.backup;

import dev.stillpoint.domain.item.Utf8Text;
import dev.stillpoint.ports.in.StoredItem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

/**
 * One lane's items checked and made into lines on the hand-off's checking threads, then written in order on
 * its writing thread. A batch stops at its first item that fails: the items before it are written, and
 * the failure is named once the lane knows where that item would have gone.
 */
final class CheckedLines implements HandOff.Sink<CheckedLines.Batch> {
    private final LayoutWriter.Lane writer;
    /** Each checking thread's own check (an {@link ItemCheck} reuses its buffers); null where items go unchecked. */
    private final ThreadLocal<ItemCheck> checks;
    private final ExportListener listener;
    private long count;

    /**
     * A batch made into lines: {@code lines[0..ready)} are written; then, when {@code refused} is not null,
     * it fails the check for {@code why}.
     */
    record Batch(byte[][] lines, int ready, StoredItem refused, String why) {
    }

    /** An item that fails: why, for the writing thread to name with its place. */
    private static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;

        Refused(String why) {
            super(why, null, false, false);
        }
    }

    /**
     * Lines for {@code writer}.
     *
     * @param writer   the lane the lines go to
     * @param checks   makes one thread's check of the table's items; null to write them unchecked
     * @param listener told as items are written
     */
    CheckedLines(LayoutWriter.Lane writer, Supplier<ItemCheck> checks, ExportListener listener) {
        this.writer = writer;
        this.checks = checks == null ? null : ThreadLocal.withInitial(checks);
        this.listener = listener;
    }

    @Override
    public Batch prepare(StoredItem[] items, long first) {
        ItemCheck check = checks == null ? null : checks.get();
        byte[][] lines = new byte[items.length][];
        for (int i = 0; i < items.length; i++) {
            try {
                lines[i] = line(items[i], first + i, check);
            } catch (Refused e) {
                return new Batch(lines, i, items[i], e.getMessage());
            }
        }
        return new Batch(lines, items.length, null, null);
    }

    @Override
    public void write(Batch batch) throws IOException {
        for (int i = 0; i < batch.ready(); i++) {
            writer.write(batch.lines()[i]);
            count++;
            listener.exported(count);
        }
        if (batch.refused() != null) {
            throw ItemCheck.failed(batch.refused(), count + 1, writer.where(count + 1), batch.why());
        }
    }

    /** The line of {@code item}, the {@code position}-th, in UTF-8, once it passes {@code check} (where there is one). */
    private static byte[] line(StoredItem item, long position, ItemCheck check) throws Refused {
        byte[] stored = item.storedBytes().orElse(null);
        if (stored != null && asStored(stored)) { // the driver's bytes go to the file as they are
            checked(item, stored, check);
            return stored;
        }
        String json = item.json();
        if (TableExport.plain(json)) { // checked and written from one UTF-8 encoding of the text
            byte[] utf8 = json.getBytes(StandardCharsets.UTF_8);
            checked(item, utf8, check);
            return utf8;
        }
        // Checked as stored first, so a bad item is named before line() could refuse it.
        checked(item, null, check);
        if (json.indexOf('\n') >= 0 || json.indexOf('\r') >= 0) {
            // A stored item, not this program, is at fault: exit 8 naming its key, as any bad item [V5].
            throw new Refused(ItemCheck.RAW_LINE_BREAK);
        }
        return TableExport.line(json, position - 1).getBytes(StandardCharsets.UTF_8);
    }

    private static void checked(StoredItem item, byte[] utf8, ItemCheck check) throws Refused {
        String why = check == null ? null : check.problem(item, utf8);
        if (why != null) {
            throw new Refused(why);
        }
    }

    /** @return the items written so far */
    long count() {
        return count;
    }

    @Override
    public void end() throws IOException {
        writer.endData();
    }

    /**
     * Whether {@code stored} can be the item's line as it is: UTF-8 without a raw line break. Bytes
     * that are not UTF-8 end the export naming the item, as a check failure does, whether or not items
     * are checked: no line of the file is anything but UTF-8 [E1]. A raw line break is left to the text
     * path, which refuses it.
     */
    private static boolean asStored(byte[] stored) throws Refused {
        int kind = LineBytes.kind(stored);
        if (kind == LineBytes.LINE_BREAK) {
            return false;
        }
        if (kind == LineBytes.NOT_ASCII) {
            int at = Utf8Text.firstMalformedByte(stored);
            if (at >= 0) {
                throw new Refused(ItemCheck.notUtf8(stored[at], at));
            }
        }
        return true;
    }
}
