package dev.stillpoint.adapters.mongo.engine;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.lifecycle.TableEffect;
import dev.stillpoint.domain.lifecycle.TableEvent;
import dev.stillpoint.domain.lifecycle.TableLifecycle;
import dev.stillpoint.domain.lifecycle.TableRefusal;
import dev.stillpoint.domain.lifecycle.TableState;
import dev.stillpoint.domain.machine.Transition;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.out.TimeSource;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * DeleteTable on MongoDB: inline, never DELETING. A collection drop does not wait behind a reader
 * (an open snapshot's cursor is killed and its stream ends with an error), so there is nothing to
 * defer: the lifecycle machine's synchronous path with a probe that always answers "free". Every
 * data collection is dropped, base first, then the catalog documents are removed; a drop that fails
 * surfaces as its mapped error with the table still ACTIVE, and DeleteTable again finishes the job
 * (a drop of a missing collection is a no-op).
 */
final class InlineDeletion {

    private static final Logger LOG = LoggerFactory.getLogger(InlineDeletion.class);

    private final MongoCatalog catalog;
    private final Work work;
    private final TimeSource time;

    InlineDeletion(MongoCatalog catalog, Work work, TimeSource time) {
        this.catalog = catalog;
        this.work = work;
        this.time = time;
    }

    TableDescription deleteTable(String accountId, String tableName) {
        CatalogDocuments.Loaded loaded = catalog.load(null, accountId, tableName)
                .orElseThrow(() -> StorageException.tableNotFound(tableName));
        TableState state = loaded.record().state();
        // Zero delay: MongoDB never schedules a drop for later, whatever the control-plane delay.
        state = step(state, new TableEvent.DeleteRequested(time.now(), Duration.ZERO), tableName);
        if (state.kind() == TableState.Kind.DELETING) {
            // A document left DELETING by something else: report it as DynamoDB would, and finish the drop.
            LOG.warn("table '{}' was DELETING in the catalog; dropping it now", tableName);
            state = new TableState.Probing(TableState.DropPath.SYNCHRONOUS);
        }
        state = step(state, new TableEvent.Probed(time.now(), false), tableName);
        if (state.kind() != TableState.Kind.DROPPING) {
            throw StorageException.internal("DeleteTable of '" + tableName + "' reached " + state
                    + ", not DROPPING", null);
        }
        for (String collection : loaded.collections()) {
            work.run("dropping collection " + collection + " of table '" + tableName + "'", () -> {
                work.data(collection).drop();
                return null;
            });
        }
        step(state, new TableEvent.DropFinished(time.now(), TableEvent.DropOutcome.DROPPED), tableName);
        if (!catalog.removeDocuments(loaded)) {
            LOG.debug("the catalog document of '{}' was removed by a concurrent DeleteTable", tableName);
        }
        // A put that read the document before its removal may have re-created a collection meanwhile
        // (MongoDB creates one on first write): drop them again; the poller's OrphanSweep covers later ones.
        for (String collection : loaded.collections()) {
            work.run("dropping collection " + collection + " of table '" + tableName + "' again", () -> {
                work.data(collection).drop();
                return null;
            });
        }
        return loaded.record().description().withStatus(TableStatus.DELETING);
    }

    /** One lifecycle step; a refusal becomes the error it names [D4, D5]. */
    private static TableState step(TableState state, TableEvent event, String tableName) {
        Transition<TableState, TableEffect, TableRefusal> t = TableLifecycle.apply(state, event);
        if (t instanceof Transition.Refused<TableState, TableEffect, TableRefusal> refused) {
            throw new StorageException(refused.refusal().reason(), "cannot delete table '" + tableName + "': "
                    + refused.refusal() + " (" + refused.detail() + ")");
        }
        return t.nextOr(state);
    }
}
