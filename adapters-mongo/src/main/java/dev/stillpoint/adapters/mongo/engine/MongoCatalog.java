package dev.stillpoint.adapters.mongo.engine;

import static com.mongodb.client.model.Filters.and;
import static com.mongodb.client.model.Filters.eq;
import static com.mongodb.client.model.Filters.in;
import static com.mongodb.client.model.Filters.lt;
import static com.mongodb.client.model.Filters.ne;

import com.mongodb.client.ClientSession;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.Updates;
import dev.stillpoint.adapters.mongo.storage.DataCollections;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.IndexStatus;
import dev.stillpoint.domain.table.LocalSecondaryIndex;
import dev.stillpoint.domain.table.RestoreSummary;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.out.ControlPlaneStore;
import dev.stillpoint.ports.out.PendingTransition;
import dev.stillpoint.ports.out.TableRecord;
import dev.stillpoint.ports.out.TimeSource;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.bson.BsonDateTime;
import org.bson.BsonDocument;
import org.bson.BsonNull;
import org.bson.BsonString;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The catalog collections as the control plane and the table operations use them. A table's
 * document is created first and its collections after it, so no data collection ever exists without
 * the document naming it; DeleteTable removes the document only after dropping them.
 */
public final class MongoCatalog implements ControlPlaneStore {

    private static final Logger LOG = LoggerFactory.getLogger(MongoCatalog.class);

    private final Transactions work;
    private final TimeSource time;
    private final Duration delay;

    MongoCatalog(Transactions work, TimeSource time, Duration delay) {
        this.work = work;
        this.time = time;
        this.delay = delay;
    }

    MongoCollection<BsonDocument> tables() {
        return work.catalog(CatalogDocuments.TABLES);
    }

    MongoCollection<BsonDocument> indexes() {
        return work.catalog(CatalogDocuments.INDEXES);
    }

    MongoCollection<BsonDocument> droppedTables() {
        return work.catalog(CatalogDocuments.DROPPED_TABLES);
    }

    @Override
    public Duration controlPlaneDelay() {
        return delay;
    }

    @Override
    public Optional<TableRecord> find(String accountId, String tableName) {
        return load(null, accountId, tableName).map(CatalogDocuments.Loaded::record);
    }

    /** The table's documents read in {@code session} (null: outside any), or empty without a document. */
    Optional<CatalogDocuments.Loaded> load(ClientSession session, String accountId, String tableName) {
        return work.run("reading the catalog document of table '" + tableName + "'", () -> {
            BsonDocument table = Transactions.first(tables(), session,
                    eq("_id", CatalogDocuments.tableDocumentId(accountId, tableName)));
            if (table == null) {
                return Optional.empty();
            }
            List<BsonDocument> indexes = Transactions.all(indexes(), session,
                    eq("table_id", table.getString("table_id").getValue()), Sorts.ascending("ordinal"));
            return Optional.of(CatalogDocuments.load(table, indexes));
        });
    }

    @Override
    public TableDescription insertCreating(CreateTableRequest request, Instant activateAt) {
        return insert(request, activateAt, Optional.empty());
    }

    /** As CreateTable, with the restore (in progress) on the table's document and its stamp as the due time [E4]. */
    @Override
    public TableDescription insertRestoring(CreateTableRequest request, RestoreSummary summary, Instant aliveUntil) {
        return insert(request, aliveUntil, Optional.of(summary));
    }

    private TableDescription insert(CreateTableRequest request, Instant activateAt, Optional<RestoreSummary> restore) {
        // The change log [I1] is not kept on MongoDB yet: refused before the table's document is written.
        request.changeLog().requireOffOn("MongoDB", request.tableName());
        String tableId = DataCollections.newTableId();
        // A BSON date holds milliseconds: the description answered now is the one read back later.
        Instant now = time.now().truncatedTo(ChronoUnit.MILLIS);
        TableDescription description = request.describe(tableId, request.tableArn(), now);
        List<BsonDocument> indexDocs = new ArrayList<>();
        int ordinal = 0;
        for (GlobalSecondaryIndex g : request.gsis()) {
            // Built with the table: it is empty, so there is nothing to backfill.
            indexDocs.add(CatalogDocuments.newIndex(tableId, g.name(), true, ordinal++, g.keySchema(), g.projection(),
                    IndexStatus.ACTIVE, false));
        }
        for (LocalSecondaryIndex l : request.lsis()) {
            indexDocs.add(CatalogDocuments.newIndex(tableId, l.name(), false, ordinal++, l.keySchema(), l.projection(),
                    IndexStatus.ACTIVE, false));
        }
        BsonDocument table = CatalogDocuments.newTable(request, description, activateAt.truncatedTo(ChronoUnit.MILLIS),
                ordinal);
        restore.ifPresent(r -> table.put("restore", CatalogDocuments.restore(r)));
        String doing = "creating table '" + request.tableName() + "'";
        try {
            work.write(doing, s -> {
                Transactions.insert(tables(), s, table);
                for (BsonDocument i : indexDocs) {
                    Transactions.insert(indexes(), s, i);
                }
                return null;
            });
        } catch (StorageException e) {
            if (e.reason() == dev.stillpoint.domain.error.ErrorReason.RESOURCE_IN_USE) {
                throw StorageException.resourceInUse((restore.isPresent() ? "cannot restore into table '"
                        : "cannot create table '") + request.tableName() + "': a table of this name exists");
            }
            throw e;
        }
        CatalogDocuments.Loaded loaded = CatalogDocuments.load(table, indexDocs);
        try {
            for (String collection : loaded.collections()) {
                work.run(doing, () -> {
                    work.dataDatabase().createCollection(collection);
                    return null;
                });
            }
        } catch (StorageException e) {
            undoCreate(loaded, request.tableName(), e);
            throw e;
        }
        return restore.isPresent() ? loaded.record().description() : description;
    }

    @Override
    public boolean renewRestore(String accountId, String tableName, String tableId, Instant aliveUntil) {
        return work.run("renewing the restore of table '" + tableName + "'", () -> tables().updateOne(
                restoring(accountId, tableName, tableId),
                Updates.combine(Updates.set("status_due_at", new BsonDateTime(aliveUntil.toEpochMilli())),
                        Updates.inc("rev", 1L)))
                .getModifiedCount() == 1);
    }

    /**
     * One document update: ACTIVE, the restore no longer in progress and the restored collection's counts
     * together. The counts are read (collStats, as the statistics pass reads them) while the table is still
     * restoring, so the first description of the ACTIVE table carries them instead of 0 until the next pass.
     */
    @Override
    public boolean completeRestore(String accountId, String tableName, String tableId) {
        String doing = "completing the restore of table '" + tableName + "'";
        BsonDocument table = work.run(doing, () -> tables().find(restoring(accountId, tableName, tableId)).first());
        if (table == null) {
            return false;
        }
        String collection = table.getString("collection").getValue();
        BsonDocument stats = work.run(doing, () -> work.dataDatabase().runCommand(
                new BsonDocument("collStats", new org.bson.BsonString(collection)), BsonDocument.class));
        long items = stats.getNumber("count").longValue();
        long bytes = stats.getNumber("size").longValue();
        return work.run(doing, () -> tables().updateOne(
                restoring(accountId, tableName, tableId),
                Updates.combine(Updates.set("status", TableStatus.ACTIVE.name()),
                        Updates.set("status_due_at", BsonNull.VALUE),
                        Updates.set("restore.restore_in_progress", false),
                        Updates.set("item_count", items), Updates.set("size_bytes", bytes), Updates.inc("rev", 1L)))
                .getModifiedCount() == 1);
    }

    private static org.bson.conversions.Bson restoring(String accountId, String tableName, String tableId) {
        return and(eq("_id", CatalogDocuments.tableDocumentId(accountId, tableName)), eq("table_id", tableId),
                eq("status", TableStatus.CREATING.name()), eq("restore.restore_in_progress", true));
    }

    private void undoCreate(CatalogDocuments.Loaded loaded, String tableName, StorageException cause) {
        LOG.warn("CreateTable of '{}' failed ({}); dropping what it created", tableName, cause.getMessage());
        try {
            for (String collection : loaded.collections()) {
                work.data(collection).drop();
            }
            removeDocuments(loaded);
        } catch (RuntimeException e) {
            LOG.warn("could not undo the failed CreateTable of '{}': {}", tableName, e.getMessage());
        }
    }

    @Override
    public boolean markActive(String accountId, String tableName) {
        return work.run("activating table '" + tableName + "'", () -> tables().updateOne(
                and(eq("_id", CatalogDocuments.tableDocumentId(accountId, tableName)),
                        eq("status", TableStatus.CREATING.name()), ne("restore.restore_in_progress", true)),
                Updates.combine(Updates.set("status", TableStatus.ACTIVE.name()),
                        Updates.set("status_due_at", BsonNull.VALUE), Updates.inc("rev", 1L)))
                .getModifiedCount() == 1);
    }

    /** CREATING tables only: a MongoDB DeleteTable is inline, so no document is ever left DELETING. */
    @Override
    public List<PendingTransition> pendingTransitions() {
        return work.run("listing tables being created", () -> {
            List<PendingTransition> out = new ArrayList<>();
            for (BsonDocument t : tables().find(in("status", TableStatus.CREATING.name()))) {
                out.add(new PendingTransition(t.getString("account_id").getValue(),
                        t.getString("table_name").getValue(), CatalogDocuments.state(t)));
            }
            return out;
        });
    }

    /** Every table name of the account, in name order. */
    List<String> names(String accountId) {
        return work.run("listing tables", () -> {
            List<String> out = new ArrayList<>();
            for (BsonDocument t : tables().find(eq("account_id", accountId)).sort(Sorts.ascending("table_name"))
                    .projection(new BsonDocument("table_name", new org.bson.BsonInt32(1)))) {
                out.add(t.getString("table_name").getValue());
            }
            return out;
        });
    }

    /** Removes the table's documents (its index documents first); true when the table document was there. */
    boolean removeDocuments(CatalogDocuments.Loaded loaded) {
        String tableId = loaded.table().getString("table_id").getValue();
        return work.write("removing the catalog documents of table '" + tableId + "'", s -> {
            // Recorded with the removal: the sweep may then drop a collection of this id that a racing put
            // re-creates, and only such collections [O1].
            Transactions.replace(droppedTables(), s, eq("_id", tableId), new BsonDocument("_id", new BsonString(tableId))
                    .append("dropped_at", new BsonDateTime(time.now().toEpochMilli())));
            Transactions.deleteMany(indexes(), s, eq("table_id", tableId));
            return Transactions.deleteMany(tables(), s, and(eq("_id", loaded.table().get("_id")), eq("table_id", tableId))) == 1;
        });
    }

    /**
     * The ids of the tables this catalog deleted [O1], forgetting those deleted before {@code now - keep}: a put
     * racing a DeleteTable re-creates a collection only while its transaction lives (a minute by default).
     */
    Set<String> droppedTableIds(Duration keep) {
        return work.run("listing the tables this catalog deleted", () -> {
            droppedTables().deleteMany(lt("dropped_at", new BsonDateTime(time.now().minus(keep).toEpochMilli())));
            Set<String> ids = new HashSet<>();
            for (BsonDocument d : droppedTables().find()) {
                ids.add(d.getString("_id").getValue());
            }
            return ids;
        });
    }

    /**
     * Records a restore on the document of this table instance (its catalog id), as a restore would [K3]; a
     * table deleted since it was described is TableNotFound naming it.
     */
    void writeRestore(TableDescription table, RestoreSummary summary) {
        long modified = work.run("recording a restore of table '" + table.tableName() + "'", () -> tables().updateOne(
                eq("table_id", table.tableId()),
                Updates.combine(Updates.set("restore", CatalogDocuments.restore(summary)), Updates.inc("rev", 1L))))
                .getMatchedCount();
        if (modified == 0) {
            throw StorageException.tableNotFound(table.tableName());
        }
    }
}
