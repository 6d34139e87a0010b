package dev.stillpoint.domain.request;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Utf8Text;

/**
 * Attribute name rules [R2]: a key attribute (of the table, a GSI or an LSI) is 1-255 bytes of UTF-8;
 * any other name 1-65,535 bytes. Names are well-formed text [R4].
 */
public final class AttributeNames {
    /** Longest name of a key attribute, in UTF-8 bytes. */
    public static final int MAX_KEY_NAME_BYTES = 255;
    /** Longest name of any other attribute, in UTF-8 bytes. */
    public static final int MAX_NAME_BYTES = 65_535;

    private AttributeNames() {
    }

    /**
     * {@code name} if it is a valid key attribute name; {@code role} says whose key it is (for the message).
     *
     * @param name the attribute name to check
     * @param role whose key it is, for the message
     * @return {@code name}, unchanged
     */
    public static String requireKeyName(String name, String role) {
        return require(name, role, MAX_KEY_NAME_BYTES);
    }

    /**
     * {@code name} if it is a valid attribute name; {@code where} says where it was found.
     *
     * @param name the attribute name to check
     * @param where where the name was found, for the message
     * @return {@code name}, unchanged
     */
    public static String requireName(String name, String where) {
        return require(name, where, MAX_NAME_BYTES);
    }

    /**
     * Whether {@code name} is a valid attribute name (not a key's): what {@link #requireName} accepts, without
     * building the message a refusal needs.
     *
     * @param name the attribute name
     * @return true when {@link #requireName} would return it
     */
    public static boolean isValidName(String name) {
        return name != null && !name.isEmpty() && Utf8Text.firstUnpairedSurrogate(name) < 0
                && fits(name, MAX_NAME_BYTES);
    }

    /** Whether the name's UTF-8 form is at most {@code maxBytes}; a char takes at most 3 bytes, so short names are not measured. */
    private static boolean fits(String name, int maxBytes) {
        return name.length() * 3L <= maxBytes || Item.utf8Length(name) <= maxBytes;
    }

    private static String require(String name, String role, int maxBytes) {
        if (name == null || name.isEmpty()) {
            throw StorageException.validation("attribute name of " + role + " must be 1-" + maxBytes
                    + " bytes of UTF-8, got " + (name == null ? "null" : "an empty name"));
        }
        if (Utf8Text.firstUnpairedSurrogate(name) >= 0) {
            WellFormedText.require(name, "attribute name " + Shown.text(name) + " of " + role);
        }
        if (!fits(name, maxBytes)) {
            long bytes = Item.utf8Length(name);
            throw StorageException.validation("attribute name " + Shown.text(name) + " of " + role + " is " + bytes
                    + " bytes of UTF-8; at most " + maxBytes + " are allowed");
        }
        return name;
    }
}
