package dev.stillpoint.domain.request;

import dev.stillpoint.domain.error.StorageException;

/**
 * The one accepted form of an account id [R2]: 1-64 characters of {@code [A-Za-z0-9_-]}. AWS's own
 * ids are twelve digits; a local server may use names such as {@code acct}. The id is copied into
 * ARNs and catalog keys, so quotes, colons, slashes and spaces are refused rather than escaped.
 */
public final class AccountIds {
    /** Longest accepted account id. */
    public static final int MAX_LENGTH = 64;

    private AccountIds() {
    }

    /**
     * {@code accountId} if it has the accepted form; otherwise a validation error naming it.
     *
     * @param accountId the account id to check
     * @return {@code accountId}, unchanged
     */
    public static String require(String accountId) {
        if (accountId == null || accountId.isEmpty()) {
            throw StorageException.validation("account id must be 1-" + MAX_LENGTH + " characters of [A-Za-z0-9_-], got "
                    + (accountId == null ? "null" : "an empty string"));
        }
        if (accountId.length() > MAX_LENGTH) {
            throw StorageException.validation("account id " + Shown.text(accountId) + " is " + accountId.length()
                    + " characters long; at most " + MAX_LENGTH + " are accepted");
        }
        for (int i = 0; i < accountId.length(); i++) {
            char c = accountId.charAt(i);
            boolean allowed = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '_' || c == '-';
            if (!allowed) {
                throw StorageException.validation("account id " + Shown.text(accountId)
                        + " may contain only A-Z, a-z, 0-9, '_' and '-', found " + Shown.character(c) + " at position " + i);
            }
        }
        return accountId;
    }
}
