package dev.stillpoint.ports.out;

import dev.stillpoint.domain.lifecycle.TableState;
import dev.stillpoint.domain.table.TableDescription;

/**
 * A table's catalog row as the machinery sees it: the description and the lifecycle state the row
 * encodes (status plus due time and retry class).
 */
public record TableRecord(TableDescription description, TableState state) {
}
