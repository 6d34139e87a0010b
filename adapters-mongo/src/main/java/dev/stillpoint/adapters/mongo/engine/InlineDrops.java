package dev.stillpoint.adapters.mongo.engine;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.core.lifecycle.InlineDropAttempt;
import dev.stillpoint.ports.out.DropAttempt;
import dev.stillpoint.ports.out.TableDropPort;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * DeleteTable's storage steps on MongoDB, driven by the shared {@code TableDeletion} with a zero
 * delay: inline, never DELETING. A collection drop does not wait behind a reader (an open snapshot's
 * cursor is killed and its stream ends with an error), so the probe always answers "free". Every data
 * collection is dropped, base first, then the catalog documents are removed; a drop that fails
 * surfaces as its mapped error with the table still ACTIVE, and DeleteTable again finishes the job (a
 * drop of a missing collection is a no-op).
 */
final class InlineDrops implements TableDropPort {

    private static final Logger LOG = LoggerFactory.getLogger(InlineDrops.class);

    private final MongoCatalog catalog;
    private final Transactions work;

    InlineDrops(MongoCatalog catalog, Transactions work) {
        this.catalog = catalog;
        this.work = work;
    }

    @Override
    public DropAttempt beginDrop(String accountId, String tableName) {
        CatalogDocuments.Loaded loaded = catalog.load(null, accountId, tableName)
                .orElseThrow(() -> StorageException.tableNotFound(tableName));
        return new InlineDropAttempt(loaded.record(), () -> dropCollections(loaded, tableName, ""), () -> {
            if (!catalog.removeDocuments(loaded)) {
                LOG.debug("the catalog document of '{}' was removed by a concurrent DeleteTable", tableName);
            }
            // A put that read the document before its removal may have re-created a collection meanwhile
            // (MongoDB creates one on first write): drop them again; the poller's OrphanSweep covers later ones.
            dropCollections(loaded, tableName, " again");
        });
    }

    private void dropCollections(CatalogDocuments.Loaded loaded, String tableName, String when) {
        for (String collection : loaded.collections()) {
            work.run("dropping collection " + collection + " of table '" + tableName + "'" + when, () -> {
                work.data(collection).drop();
                return null;
            });
        }
    }
}
