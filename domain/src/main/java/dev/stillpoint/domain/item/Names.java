package dev.stillpoint.domain.item;

import dev.stillpoint.domain.error.StorageException;

/** Table and index name rules [D3a]: 3-255 characters of {@code [a-zA-Z0-9_.-]}. */
public final class Names {
    /** Shortest allowed name. */
    public static final int MIN_LENGTH = 3;
    /** Longest allowed name. */
    public static final int MAX_LENGTH = 255;

    private Names() {
    }

    /**
     * {@code name} if it is a valid table name, else a validation error naming it.
     *
     * @param name the table name to check
     * @return {@code name}, unchanged
     */
    public static String requireTableName(String name) {
        return require("table", name);
    }

    /**
     * {@code name} if it is a valid index name, else a validation error naming it.
     *
     * @param name the index name to check
     * @return {@code name}, unchanged
     */
    public static String requireIndexName(String name) {
        return require("index", name);
    }

    private static String require(String what, String name) {
        if (name == null) {
            throw StorageException.validation(what + " name is required, got null");
        }
        if (name.length() < MIN_LENGTH || name.length() > MAX_LENGTH) {
            throw StorageException.validation(what + " name " + Checks.show(name) + " must be " + MIN_LENGTH
                    + "-" + MAX_LENGTH + " characters long, is " + name.length());
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!allowed(c)) {
                throw StorageException.validation(what + " name " + Checks.show(name)
                        + " may contain only a-z, A-Z, 0-9, '_', '-' and '.', found '" + Checks.visible(String.valueOf(c)) + "' at position " + i);
            }
        }
        return name;
    }

    private static boolean allowed(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || c == '_' || c == '-' || c == '.';
    }
}
