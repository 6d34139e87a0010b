package dev.stillpoint.domain.snapshot;

/** Who holds a permit: refusals name the kind that holds them, so an operator knows what to wait for [Q2]. */
public enum HolderKind {
    /** A table snapshot's stream. */
    TABLE_SNAPSHOT("table snapshots"),
    /** A backup in progress. */
    BACKUP("backups");

    private final String plural;

    HolderKind(String plural) {
        this.plural = plural;
    }

    /**
     * The words a refusal uses for holders of this kind.
     *
     * @return the plural noun, such as {@code table snapshots}
     */
    public String plural() {
        return plural;
    }
}
