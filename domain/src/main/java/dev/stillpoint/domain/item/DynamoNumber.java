package dev.stillpoint.domain.item;

import dev.stillpoint.domain.error.StorageException;
import java.math.BigDecimal;
import java.util.Optional;

/**
 * DynamoDB numbers [D3]: validation and the one canonical plain-decimal text per numeric value.
 *
 * <p>Accepted input: an optional sign, decimal digits with an optional point ({@code 5.} and
 * {@code .5} included), an optional {@code e}/{@code E} exponent with an optional sign; no
 * whitespace. At most 38 significant digits; a non-zero value's leading digit has a magnitude from
 * 10^-130 to 10^125. Zero is always valid. The canonical text has no sign for zero or positive
 * values, no exponent, and no leading or trailing zeros.
 */
public final class DynamoNumber {
    /** Most significant digits a number may carry. */
    public static final int MAX_SIGNIFICANT_DIGITS = 38;
    /** Largest decimal exponent of a number's leading digit. */
    public static final int MAX_LEADING_EXPONENT = 125;
    /** Smallest decimal exponent of a number's leading digit. */
    public static final int MIN_LEADING_EXPONENT = -130;

    // Bounds the exponent while parsing; any magnitude this far out is refused anyway.
    private static final long EXPONENT_CLAMP = 1L << 40;
    private static final int SHOWN_INPUT_CHARS = 200;

    private DynamoNumber() {
    }

    /**
     * The canonical text of {@code input}, or a validation error naming it.
     *
     * @param input the number's text as the client gave it
     * @return the canonical text
     */
    public static String normalise(String input) {
        Parsed parsed = parse(input);
        if (parsed.error != null) {
            throw StorageException.validation(
                    "invalid number " + show(input) + ": " + parsed.error);
        }
        return parsed.canonical;
    }

    /**
     * The numeric value of a valid number text (canonical or not); invalid text is a validation error.
     *
     * @param canonicalOrInput a valid number text
     * @return its numeric value
     */
    public static BigDecimal value(String canonicalOrInput) {
        return new BigDecimal(normalise(canonicalOrInput));
    }

    /**
     * Whether {@link #normalise} would accept {@code input}.
     *
     * @param input the text to check
     * @return true when {@code input} is a valid number
     */
    public static boolean isValid(String input) {
        return parse(input).error == null;
    }

    /**
     * The canonical text, or empty when {@code input} is not a valid number (for readers of stored data).
     *
     * @param input the text read back from storage
     * @return the canonical text, or empty
     */
    public static Optional<String> tryNormalise(String input) {
        return Optional.ofNullable(parse(input).canonical);
    }

    /** Why {@code input} is not a valid number, or {@code null} when it is one. */
    static String problem(String input) {
        return parse(input).error;
    }

    private record Parsed(String canonical, String error) {
        static Parsed ok(String canonical) {
            return new Parsed(canonical, null);
        }

        static Parsed fail(String error) {
            return new Parsed(null, error);
        }
    }

    private static Parsed parse(String s) {
        if (s == null) {
            return Parsed.fail("a number is required");
        }
        if (isCanonical(s)) { // the common case, stored and sent: no digits copied, no text built
            return Parsed.ok(s);
        }
        int n = s.length();
        int i = 0;
        boolean negative = false;
        if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            negative = s.charAt(i) == '-';
            i++;
        }
        int intStart = i;
        while (i < n && isDigit(s.charAt(i))) {
            i++;
        }
        int intEnd = i;
        int fracStart = i;
        int fracEnd = i;
        if (i < n && s.charAt(i) == '.') {
            i++;
            fracStart = i;
            while (i < n && isDigit(s.charAt(i))) {
                i++;
            }
            fracEnd = i;
        }
        if (intEnd == intStart && fracEnd == fracStart) {
            return i < n && s.charAt(i) != '.' ? unexpected(s, i) : Parsed.fail("expected decimal digits");
        }
        long exponent = 0;
        if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            i++;
            boolean negativeExponent = false;
            if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
                negativeExponent = s.charAt(i) == '-';
                i++;
            }
            int expStart = i;
            while (i < n && isDigit(s.charAt(i))) {
                exponent = Math.min(exponent * 10 + (s.charAt(i) - '0'), EXPONENT_CLAMP);
                i++;
            }
            if (i == expStart) {
                return Parsed.fail("expected exponent digits");
            }
            exponent = negativeExponent ? -exponent : exponent;
        }
        if (i != n) {
            return unexpected(s, i);
        }

        // The digits intPart+fracPart, read as an integer, times 10^(exponent - fraction length).
        StringBuilder digits = new StringBuilder(intEnd - intStart + fracEnd - fracStart);
        digits.append(s, intStart, intEnd).append(s, fracStart, fracEnd);
        int first = 0;
        while (first < digits.length() && digits.charAt(first) == '0') {
            first++;
        }
        if (first == digits.length()) {
            return Parsed.ok("0");
        }
        int last = digits.length() - 1;
        while (digits.charAt(last) == '0') {
            last--;
        }
        String significant = digits.substring(first, last + 1);
        if (significant.length() > MAX_SIGNIFICANT_DIGITS) {
            return Parsed.fail("more than " + MAX_SIGNIFICANT_DIGITS + " significant digits");
        }
        long leading = (digits.length() - 1 - first) + exponent - (fracEnd - fracStart);
        if (leading > MAX_LEADING_EXPONENT) {
            return Parsed.fail("leading digit's magnitude above 10^" + MAX_LEADING_EXPONENT);
        }
        if (leading < MIN_LEADING_EXPONENT) {
            return Parsed.fail("leading digit's magnitude below 10^" + MIN_LEADING_EXPONENT);
        }
        return Parsed.ok(plain(negative, significant, (int) leading));
    }

    /**
     * Whether {@code text} is certainly the canonical form {@link #normalise} gives: a plain decimal of at
     * most 38 digits (so within every bound), no leading zero, no trailing fraction zero, no sign on zero.
     * A {@code false} only means "parse it": a canonical text of more digits (a large integer, a small
     * fraction) answers false. Cheap, and true of the numbers stored and of most numbers clients send.
     *
     * @param text a number's text
     * @return true when {@code text} is its own canonical form
     */
    public static boolean isCanonical(String text) {
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
                return digits <= MAX_SIGNIFICANT_DIGITS;
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
                && digits <= MAX_SIGNIFICANT_DIGITS;
    }

    private static Parsed unexpected(String s, int at) {
        return Parsed.fail("unexpected character '" + Checks.visible(String.valueOf(s.charAt(at))) + "' at position " + at);
    }

    // significant * 10^(leading - (digits - 1)), written without exponent.
    private static String plain(boolean negative, String significant, int leading) {
        StringBuilder out = new StringBuilder(significant.length() + Math.abs(leading) + 3);
        if (negative) {
            out.append('-');
        }
        int pointAfter = leading + 1;
        if (pointAfter >= significant.length()) {
            out.append(significant).append("0".repeat(pointAfter - significant.length()));
        } else if (pointAfter > 0) {
            out.append(significant, 0, pointAfter).append('.').append(significant, pointAfter, significant.length());
        } else {
            out.append("0.").append("0".repeat(-pointAfter)).append(significant);
        }
        return out.toString();
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static String show(String input) {
        if (input == null) {
            return "null";
        }
        return Checks.show(input, SHOWN_INPUT_CHARS);
    }
}
