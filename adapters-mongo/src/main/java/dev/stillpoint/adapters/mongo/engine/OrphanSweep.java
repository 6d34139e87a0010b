package dev.stillpoint.adapters.mongo.engine;

import static com.mongodb.client.model.Filters.in;

import dev.stillpoint.adapters.mongo.storage.DataCollections;
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
 * Drops data collections whose table has no catalog document. MongoDB creates a collection on the
 * first write into it, and a put's transaction that read the table's document just before a
 * DeleteTable removed it can still commit after the drop, re-creating the collection with its item.
 * DeleteTable drops its collections once more after removing the documents, which closes most of
 * that window; this sweep, run by every control-plane pass, closes the rest. A collection is only
 * ever an orphan after its table's documents are gone: CreateTable writes the documents first.
 */
final class OrphanSweep {

    private static final Logger LOG = LoggerFactory.getLogger(OrphanSweep.class);

    private final Transactions work;
    private final MongoCatalog catalog;

    OrphanSweep(Transactions work, MongoCatalog catalog) {
        this.work = work;
        this.catalog = catalog;
    }

    /** Drops every orphaned data collection; returns their names. */
    List<String> run() {
        return work.run("sweeping data collections without a catalog document", () -> {
            List<String> names = work.dataDatabase().listCollectionNames().into(new ArrayList<>());
            Set<String> ids = new HashSet<>();
            for (String name : names) {
                DataCollections.tableIdOf(name).ifPresent(ids::add);
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
                if (id.isPresent() && !known.contains(id.get())) {
                    work.data(name).drop();
                    dropped.add(name);
                }
            }
            if (!dropped.isEmpty()) {
                LOG.warn("dropped data collections without a catalog document: {}", dropped);
            }
            return dropped;
        });
    }
}
