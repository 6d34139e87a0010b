package dev.stillpoint.core;

import java.util.Objects;

/**
 * Work a backend adds to every control-plane pass, before the pass's own transitions (the startup
 * pass first), e.g. PostgreSQL's and MongoDB's orphan sweep [L2]. A chore that fails is logged under
 * its name and retried on the next pass; it never stops the pass.
 *
 * @param name what the chore does, for the log ("orphan sweep")
 * @param work the chore itself; it runs on the poller's thread
 */
public record PassChore(String name, Runnable work) {

    /**
     * Requires both parts.
     *
     * @param name what the chore does, for the log
     * @param work the chore itself
     */
    public PassChore {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(work, "work");
    }
}
