package dev.stillpoint.itemjson;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Where the plain run of a string's UTF-8 bytes ends: the first byte that is a quote, a backslash or
 * a control character (below U+0020), found eight bytes at a time. Strings are most of an item's
 * bytes, and their byte-by-byte scan was the largest single line of the decoder's profile; scanning
 * words saved about 5% of a decode (BENCHMARKS.md, "Decoding from the driver's bytes"). The word tests are the classic SWAR ones ("determine if a word has a byte less than n",
 * Bit Twiddling Hacks): they can flag a byte above a true match, never below one, so the lowest
 * flagged byte is exact. Bytes of multi-byte characters (0x80 and above) are never flagged.
 */
final class PlainRun {
    private static final VarHandle WORD = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;
    private static final long QUOTES = ONES * '"';
    private static final long BACKSLASHES = ONES * '\\';
    private static final long SPACES = ONES * 0x20;

    private PlainRun() {
    }

    /**
     * The index of the first quote, backslash or control byte at or after {@code from} within a whole
     * word of {@code text}; or, if none is there, the index where the last whole word ends (the
     * caller scans the tail byte by byte, from either).
     */
    static int end(byte[] text, int from) {
        int i = from;
        int last = text.length - Long.BYTES;
        while (i <= last) {
            long word = (long) WORD.get(text, i);
            long quote = word ^ QUOTES;
            long backslash = word ^ BACKSLASHES;
            long stops = ((quote - ONES) & ~quote | (backslash - ONES) & ~backslash | (word - SPACES) & ~word) & HIGHS;
            if (stops != 0) {
                return i + (Long.numberOfTrailingZeros(stops) >>> 3);
            }
            i += Long.BYTES;
        }
        return i;
    }
}
