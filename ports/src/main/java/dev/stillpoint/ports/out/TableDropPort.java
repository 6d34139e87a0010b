package dev.stillpoint.ports.out;

/** Where drop attempts begin; the adapter supplies the unit of work. */
public interface TableDropPort {

    /** Begins an attempt on the table's row; TableNotFound when it has none. */
    DropAttempt beginDrop(String accountId, String tableName);
}
