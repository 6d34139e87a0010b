package dev.stillpoint.ports.out;

/**
 * What an adapter supplies for snapshots: the steps of one open, each a value the next is made
 * from, so the order is the types' [S1, D6]:
 *
 * <pre>
 * begin -> {@link BegunRead} -readDefinition-> {@link DefinedRead} -pin-> {@link PinnedRead} -pages-> {@link PageSource}
 * </pre>
 *
 * The shared engine adds permits, the lease machine, the pauses between the steps, the refusal of a
 * table that is not ACTIVE, release and reclaim. Each step owns what the backend holds at that point
 * (a transaction, a session, a connection): a step that returns the next hands all of it over and is
 * not closed again; a step that throws keeps it, and the engine closes that step exactly once.
 */
public interface SnapshotReadPort {

    /**
     * Begins the read on the table: its transaction or session starts, nothing is read yet; may refuse
     * (TableNotFound, Unsupported, ...) and then holds nothing.
     *
     * @param accountId the account the table belongs to
     * @param tableName the table's name
     * @param observer test hooks (round trips); {@link ReadObserver#NONE} in production
     * @return the begun read
     */
    BegunRead begin(String accountId, String tableName, ReadObserver observer);
}
