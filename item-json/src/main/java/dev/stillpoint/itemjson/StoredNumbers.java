package dev.stillpoint.itemjson;

import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.DynamoNumber;

/**
 * Numbers read from storage [S4]: canonical text kept as is, other valid text normalised, invalid
 * text raw, never refused. Canonical text is by far the common case (the codec writes numbers as
 * held, and the core holds them canonical [D3]), so it is recognised here without asking
 * {@link DynamoNumber}.
 */
final class StoredNumbers {

    private StoredNumbers() {
    }

    /** An N as stored. */
    static AttributeValue.N number(String text) {
        return isCanonical(text) ? new AttributeValue.N(text) : AttributeValue.N.fromStored(text);
    }

    /** An NS member's text as stored. */
    static String memberText(String text) {
        return isCanonical(text) ? text : AttributeValue.N.fromStored(text).text();
    }

    /**
     * Whether {@code text} is certainly the canonical form {@link DynamoNumber} would give it: a
     * plain decimal of at most 38 digits (so within every bound), no leading zero, no trailing
     * fraction zero, no sign on zero. A {@code false} only means "ask DynamoNumber".
     */
    static boolean isCanonical(String text) {
        int n = text.length();
        if (n == 0) {
            return false;
        }
        int i = 0;
        boolean negative = text.charAt(0) == '-';
        if (negative) {
            i++;
            if (n == 1) {
                return false;
            }
        }
        char c = text.charAt(i);
        int digits = 0;
        if (c == '0') {
            i++;
            digits++;
            if (i == n) {
                return !negative;
            }
            if (text.charAt(i) != '.') {
                return false;
            }
        } else if (c >= '1' && c <= '9') {
            while (i < n && (c = text.charAt(i)) >= '0' && c <= '9') {
                i++;
                digits++;
            }
            if (i == n) {
                return digits <= DynamoNumber.MAX_SIGNIFICANT_DIGITS;
            }
            if (c != '.') {
                return false;
            }
        } else {
            return false;
        }
        i++; // the point
        int fractionStart = i;
        while (i < n && (c = text.charAt(i)) >= '0' && c <= '9') {
            i++;
            digits++;
        }
        return i == n && i > fractionStart && text.charAt(n - 1) != '0'
                && digits <= DynamoNumber.MAX_SIGNIFICANT_DIGITS;
    }
}
