package dev.stillpoint.itemjson;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Item;

/**
 * The one codec between an {@link Item} and DynamoDB JSON text, the form every adapter stores and
 * the CLI exports: {@code {"pk":{"S":"a"},"n":{"N":"1.5"},"l":{"L":[{"BOOL":true}]}}}. Built on
 * jackson-core's streaming parser and generator; the domain stays free of third-party code.
 *
 * <p>{@link #encode} writes the canonical text: attributes and map entries in the item's iteration
 * order, no whitespace, strings escaped per RFC 8259 (only {@code "}, {@code \} and control
 * characters below U+0020, the short forms where JSON has them, else lower-case {@code \}{@code u00XX};
 * everything else, surrogates included, is written as is), B and BS as standard padded base64, N and
 * NS texts exactly as held.
 *
 * <p>{@link #decode} is a strict parser for exactly this shape. It accepts any RFC 8259 spelling of
 * it (insignificant whitespace between tokens, every string escape including {@code \}{@code uXXXX}
 * surrogate pairs) and refuses everything else with a {@link StorageException} of reason VALIDATION
 * whose message names the position and shows the text from there: unknown or repeated type tags,
 * non-string where a string belongs, malformed or non-canonical base64, duplicate attribute names,
 * map keys or set members, L/M nesting deeper than {@value #MAX_NESTING}, trailing characters. N and
 * NS texts are taken as stored [S4]: a valid number is normalised, an invalid one kept raw, never
 * refused. {@code decode(encode(item))} equals {@code item} whenever the item's numbers are canonical
 * or invalid, and {@code encode(decode(text))} is {@code text} for canonical text.
 */
public final class ItemJson {
    /** Deepest nesting of L and M values: an L or M directly in the item is level 1. */
    public static final int MAX_NESTING = 64;

    /**
     * Thread-safe and shared. Lower-case hex in {@code \}{@code u00XX} escapes (the canonical form
     * predates the codec); names not interned (attribute names are user data). Jackson's string and
     * name length limits are lifted: the codec reads back whatever was stored, and the item size
     * limits are the domain's ({@code ItemLimits}), applied on the way in.
     */
    private static final JsonFactory JSON = JsonFactory.builder()
            .disable(JsonWriteFeature.WRITE_HEX_UPPER_CASE)
            .disable(JsonFactory.Feature.INTERN_FIELD_NAMES)
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxStringLength(Integer.MAX_VALUE)
                    .maxNameLength(Integer.MAX_VALUE)
                    .build())
            .build();

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
        return ItemWriter.write(JSON, item);
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
        return ItemReader.read(JSON, json);
    }
}
