package dev.stillpoint.adapters.sqlite.engine;

import static dev.stillpoint.adapters.sqlite.generated.Tables.SP_COMMIT_SEQUENCE;

import org.jooq.DSLContext;

/**
 * The commit sequence [L5]: the one row of {@code sp_commit_sequence}, advanced inside every write
 * transaction of the engine (item writes, catalog changes, drops) just before it commits, and read by a
 * snapshot inside its read transaction. Two snapshots read the same value only if no engine write
 * committed between their instants, so {@code <table_id>@<seq>} names the instant a snapshot saw.
 */
final class CommitSequence {

    private CommitSequence() {
    }

    /** Advances the sequence; call inside the write transaction, after its work, before COMMIT. */
    static void advance(DSLContext ctx) {
        ctx.update(SP_COMMIT_SEQUENCE).set(SP_COMMIT_SEQUENCE.SEQ, SP_COMMIT_SEQUENCE.SEQ.plus(1)).execute();
    }

    /** The sequence as the caller's transaction sees it. */
    static long read(DSLContext ctx) {
        Long seq = ctx.select(SP_COMMIT_SEQUENCE.SEQ).from(SP_COMMIT_SEQUENCE).fetchOne(SP_COMMIT_SEQUENCE.SEQ);
        if (seq == null) {
            throw new IllegalStateException("sp_commit_sequence has no row: the catalog is not at schema version 3");
        }
        return seq;
    }
}
