package dev.stillpoint.adapters.mongo.engine;

import static com.mongodb.client.model.Filters.in;

import dev.stillpoint.adapters.mongo.storage.DataCollections;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drops data collections of tables this catalog deleted [L2, O1]. MongoDB creates a collection on the
 * first write into it, and a put's transaction that read the table's document just before a DeleteTable
 * removed it can still commit after the drop, re-creating the collection with its item. DeleteTable drops
 * its collections once more after removing the documents, which closes most of that window; this sweep,
 * run by every control-plane pass, closes the rest. Ownership is recorded, not inferred from names: the
 * removal of a table's documents records its id in {@code sp_dropped_tables} in the same transaction, and
 * only collections of a recorded id without a table document are dropped. A data database shared by
 * mistake with another deployment keeps that deployment's collections, whatever their names.
 */
final class OrphanSweep {

    private static final Logger LOG = LoggerFactory.getLogger(OrphanSweep.class);
    /** How long a deleted table's id stays recorded: far beyond a transaction's lifetime (60 s by default). */
    static final Duration KEEP_DROPPED = Duration.ofDays(1);

    private final Transactions work;
    private final MongoCatalog catalog;

    OrphanSweep(Transactions work, MongoCatalog catalog) {
        this.work = work;
        this.catalog = catalog;
    }

    /** Drops every re-created collection of a table this catalog deleted; returns their names. */
    List<String> run() {
        return work.run("sweeping data collections of deleted tables", () -> {
            Set<String> deleted = catalog.droppedTableIds(KEEP_DROPPED);
            if (deleted.isEmpty()) {
                return List.of();
            }
            List<String> names = work.dataDatabase().listCollectionNames().into(new ArrayList<>());
            Set<String> ids = new HashSet<>();
            for (String name : names) {
                DataCollections.tableIdOf(name).filter(deleted::contains).ifPresent(ids::add);
            }
            if (ids.isEmpty()) {
                return List.of();
            }
            Set<String> known = new HashSet<>();
            for (BsonDocument t : catalog.tables().find(in("table_id", ids))
                    .projection(new BsonDocument("table_id", new BsonInt32(1)))) {
                known.add(t.getString("table_id").getValue());
            }
            List<String> dropped = new ArrayList<>();
            for (String name : names) {
                Optional<String> id = DataCollections.tableIdOf(name);
                if (id.isPresent() && ids.contains(id.get()) && !known.contains(id.get())) {
                    work.data(name).drop();
                    dropped.add(name);
                }
            }
            if (!dropped.isEmpty()) {
                LOG.warn("dropped data collections of deleted tables, re-created after their drop: {}", dropped);
            }
            return dropped;
        });
    }
}
