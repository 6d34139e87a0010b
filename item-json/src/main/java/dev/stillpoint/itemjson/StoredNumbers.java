package dev.stillpoint.itemjson;

import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.DynamoNumber;

/**
 * Numbers read from storage [S4]: canonical text kept as is, other valid text normalised, invalid
 * text raw, never refused. Canonical text is by far the common case (the codec writes numbers as
 * held, and the core holds them canonical [D3]), so it is kept without a parse
 * ({@link DynamoNumber#isCanonical}).
 */
final class StoredNumbers {

    private StoredNumbers() {
    }

    /** An N as stored. */
    static AttributeValue.N number(String text) {
        return DynamoNumber.isCanonical(text) ? new AttributeValue.N(text) : AttributeValue.N.fromStored(text);
    }

    /** An NS member's text as stored. */
    static String memberText(String text) {
        return DynamoNumber.isCanonical(text) ? text : AttributeValue.N.fromStored(text).text();
    }
}
