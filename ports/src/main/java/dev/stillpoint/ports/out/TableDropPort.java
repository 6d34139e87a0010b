package dev.stillpoint.ports.out;

/** Where drop attempts begin; the adapter supplies the unit of work. */
public interface TableDropPort {

    /**
     * Begins an attempt on the table's row; TableNotFound when it has none.
     *
     * @param accountId the account the table belongs to
     * @param tableName the table's name
     * @return the attempt, holding the row until commit or close
     */
    DropAttempt beginDrop(String accountId, String tableName);
}
