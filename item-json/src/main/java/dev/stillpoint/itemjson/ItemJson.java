package dev.stillpoint.itemjson;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Item;

/**
 * The one codec between an {@link Item} and DynamoDB JSON text, the form every adapter stores and
 * the CLI exports: {@code {"pk":{"S":"a"},"n":{"N":"1.5"},"l":{"L":[{"BOOL":true}]}}}. It lives
 * beside the domain, not in it: the domain holds items, this module their text.
 *
 * <p>{@link #encode} writes the canonical text: attributes and map entries in the item's iteration
 * order, no whitespace, strings escaped per RFC 8259 (only {@code "}, {@code \} and control
 * characters below U+0020, the short forms where JSON has them, else lower-case {@code \}{@code u00XX};
 * everything else, surrogates included, is written as is), B and BS as standard padded base64, N and
 * NS texts exactly as held.
 *
 * <p>{@link #decode} is a strict parser for exactly this shape ({@link #decodeUtf8} the same parser
 * on the UTF-8 bytes a driver hands over, so no decoded copy of the whole text is made). It accepts any RFC 8259 spelling of
 * it (insignificant whitespace between tokens, every string escape including {@code \}{@code uXXXX}
 * surrogate pairs) and refuses everything else with a {@link StorageException} of reason VALIDATION
 * whose message names the position and shows the text from there: unknown or repeated type tags,
 * non-string where a string belongs, malformed or non-canonical base64, duplicate attribute names,
 * map keys or set members, L/M nesting deeper than {@value #MAX_NESTING}, trailing characters. N and
 * NS texts are taken as stored [S4]: a valid number is normalised, an invalid one kept raw, never
 * refused. {@code decode(encode(item))} equals {@code item} whenever the item's numbers are canonical
 * or invalid, and {@code encode(decode(text))} is {@code text} for canonical text.
 *
 * <p><b>Why hand-written, not jackson-core's streaming API</b> (issue 13 asked for the library
 * unless an A/B on the same rows showed this faster): on the snapshot benchmarks' rows (407-character
 * items; {@code bench/codec-ab.sh}, BENCHMARKS.md) a codec on Jackson's parser and generator, checked
 * byte for byte and refusal for refusal against this one (commit 0bd732a), decoded at 0.60-0.69x of
 * this parser's speed and encoded at 0.86-0.90x (CPU time, median of 5 rounds, three runs).
 * Jackson's tokenising alone, materialising every name and string and building nothing, cost about
 * as much as this whole decode: items are small, type tags are read here in place without making
 * strings, and plain strings are cut from the text in one copy. And Jackson's refusals point past
 * the fault in its own words, so keeping these messages needed a second walk of the grammar anyway.
 * Base64 is the JDK's.
 */
public final class ItemJson {
    /** Deepest nesting of L and M values: an L or M directly in the item is level 1. */
    public static final int MAX_NESTING = 64;

    private ItemJson() {
    }

    /**
     * The canonical DynamoDB JSON text of {@code item}; a validation error if it nests L and M more
     * than {@value #MAX_NESTING} levels deep (such text could not be read back).
     *
     * @param item the item to encode
     * @return the item as DynamoDB JSON
     */
    public static String encode(Item item) {
        if (item == null) {
            throw StorageException.validation("item must not be null");
        }
        return ItemWriter.write(item);
    }

    /**
     * The item in {@code json}, strictly parsed; anything but one DynamoDB JSON item is a validation
     * error naming the position. Numbers are taken as stored [S4] and never refused.
     *
     * @param json the DynamoDB JSON text of one item
     * @return the item
     */
    public static Item decode(String json) {
        if (json == null) {
            throw StorageException.validation("invalid item JSON: the text is null");
        }
        return new ItemParser(JsonBytes.of(json)).item();
    }

    /**
     * {@code json} with each unpaired surrogate (which UTF-8 cannot hold) written as its JSON escape
     * {@code \}{@code uXXXX}, every other character as it is: inside a string the escape reads back as
     * the same character, so the text is the same item and can be written as UTF-8 (an export's line).
     *
     * @param json item text that may hold unpaired surrogates
     * @return the text with those escaped (an equal text when it has none)
     */
    public static String escapeUnpairedSurrogates(String json) {
        return JsonBytes.escapeUnpairedSurrogates(json);
    }

    /**
     * The item in the UTF-8 bytes {@code utf8}, as {@link #decode(String)} reads their text: a
     * storage driver hands the column's bytes over and no decoded copy of the whole text is made.
     * Malformed UTF-8 reads as U+FFFD, as {@code new String(utf8, UTF_8)} would read it; a refusal
     * names the position in characters of that text.
     *
     * @param utf8 the DynamoDB JSON text of one item, in UTF-8; not changed, and not kept
     * @return the item
     */
    public static Item decodeUtf8(byte[] utf8) {
        if (utf8 == null) {
            throw StorageException.validation("invalid item JSON: the text is null");
        }
        return new ItemParser(utf8).item();
    }
}
