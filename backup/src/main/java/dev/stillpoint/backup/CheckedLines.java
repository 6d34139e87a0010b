package dev.stillpoint.backup;

import dev.stillpoint.domain.item.Utf8Text;
import dev.stillpoint.ports.in.StoredItem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** The writing thread's work: each item checked, then written as one line, in order. */
final class CheckedLines implements HandOff.Sink {
    private final LayoutWriter.Lane writer;
    private final ItemCheck check;
    private final ExportListener listener;
    private long count;

    CheckedLines(LayoutWriter.Lane writer, ItemCheck check, ExportListener listener) {
        this.writer = writer;
        this.check = check;
        this.listener = listener;
    }

    @Override
    public void accept(StoredItem item) throws IOException {
        byte[] stored = item.storedBytes().orElse(null);
        byte[] utf8;
        if (stored != null && asStored(item, stored)) { // the driver's bytes go to the file as they are
            utf8 = stored;
            if (check != null) {
                check.check(item, utf8, count + 1, writer.where(count + 1));
            }
        } else {
            String json = item.json();
            if (TableExport.plain(json)) { // checked and written from one UTF-8 encoding of the text
                utf8 = json.getBytes(StandardCharsets.UTF_8);
                if (check != null) {
                    check.check(item, utf8, count + 1, writer.where(count + 1));
                }
            } else { // checked as stored first, so a bad item is named before line() could refuse it
                if (check != null) {
                    check.check(item, count + 1, writer.where(count + 1));
                }
                if (json.indexOf('\n') >= 0 || json.indexOf('\r') >= 0) {
                    // A stored item, not this program, is at fault: exit 8 naming its key, as any bad item [V5].
                    throw ItemCheck.rawLineBreak(item, count + 1, writer.where(count + 1));
                }
                utf8 = TableExport.line(json, count).getBytes(StandardCharsets.UTF_8);
            }
        }
        writer.write(utf8);
        count++;
        listener.exported(count);
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
    private boolean asStored(StoredItem item, byte[] stored) {
        boolean ascii = true;
        for (byte b : stored) {
            if (b == '\n' || b == '\r') {
                return false;
            }
            ascii &= b >= 0;
        }
        if (!ascii) {
            int at = Utf8Text.firstMalformedByte(stored);
            if (at >= 0) {
                throw ItemCheck.notUtf8(item, count + 1, writer.where(count + 1), stored[at], at);
            }
        }
        return true;
    }
}
