package dev.stillpoint.adapters.postgres.engine;

import static dev.stillpoint.adapters.postgres.generated.Tables.SP_TABLES;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.table.TableStatus;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A data relation found missing is a deleted table or a damaged one [D10]. Damaged while every table's catalog
 * row is still ACTIVE under the id it was read with: a DeleteTable removes the row (shared layout) or marks it
 * DELETING (separate) before its drops are seen, so only a drop outside Stillpoint leaves an ACTIVE row without
 * its relation. One judgement for the item writes, GetItem and a snapshot's pin; SQLite says the same of a
 * missing table (INTERNAL), never TableNotFound for a table DescribeTable shows.
 */
final class MissingRelation {

    private static final Logger LOG = LoggerFactory.getLogger(MissingRelation.class);

    private MissingRelation() {
    }

    /**
     * Whether the rows of {@code tableIds} are all ACTIVE now, read on a catalog connection of its own (a
     * snapshot's own transaction would see the row as it was). False when the read fails: the failure found
     * first stands.
     */
    static boolean rowsStillActive(Pools pools, Set<String> tableIds) {
        try (Connection c = pools.catalog()) {
            return Transaction.dsl(c).fetchCount(SP_TABLES, SP_TABLES.TABLE_ID.in(tableIds),
                    SP_TABLES.STATUS.eq(TableStatus.ACTIVE.name())) == tableIds.size();
        } catch (SQLException | RuntimeException e) {
            LOG.debug("could not read the rows of {} again after a relation was found missing: {}", tableIds,
                    e.toString());
            return false;
        }
    }

    /**
     * The damage: {@code what} went wrong, and the tables whose ACTIVE rows still name the missing relation. When
     * relations of those tables are in another schema of the data database, the message says so and how to move
     * them back: a build without the pinned search path created them there, and they were not removed.
     */
    static StorageException damaged(Pools pools, Set<String> tableIds, String what, Collection<String> tableNames,
                                    Throwable cause) {
        List<String> elsewhere = elsewhere(pools, tableIds);
        if (!elsewhere.isEmpty()) {
            return new StorageException(ErrorReason.INTERNAL, what + "; the catalog row of table(s) " + tableNames
                    + " is ACTIVE and its relations " + elsewhere + " are in another schema than the one this deployment"
                    + " keeps its relations in (an earlier build created them there, following its login's search path):"
                    + " move them back with ALTER TABLE ... SET SCHEMA", cause);
        }
        return new StorageException(ErrorReason.INTERNAL, what + "; the catalog row of table(s) " + tableNames
                + " is ACTIVE: the relation was removed outside Stillpoint and the table is damaged", cause);
    }

    private static List<String> elsewhere(Pools pools, Set<String> tableIds) {
        try (Connection c = pools.data()) {
            List<String> found = new ArrayList<>();
            DataRelations.elsewhere(Transaction.dsl(c), tableIds).forEach((relation, schema) -> found.add(schema + "." + relation));
            return found;
        } catch (SQLException | RuntimeException e) {
            LOG.debug("could not look for the relations of {} in other schemas: {}", tableIds, e.toString());
            return List.of();
        }
    }
}
