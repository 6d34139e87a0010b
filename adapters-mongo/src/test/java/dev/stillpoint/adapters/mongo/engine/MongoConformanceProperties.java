package dev.stillpoint.adapters.mongo.engine;

import dev.stillpoint.adapters.mongo.MongoStorage;
import dev.stillpoint.adapters.mongo.storage.ItemDocuments;
import dev.stillpoint.adapters.mongo.testing.MongoServers;
import dev.stillpoint.adapters.mongo.testing.NeedsMongoReplicaSet;
import dev.stillpoint.adapters.mongo.testing.ScratchDatabases;
import dev.stillpoint.adapters.mongo.testing.SnapshotRoundTrips;
import dev.stillpoint.properties.fixtures.StorageKitEngine;
import dev.stillpoint.properties.kit.ConformanceFixture;
import dev.stillpoint.properties.kit.Expectations;
import dev.stillpoint.properties.kit.KitEngine;
import dev.stillpoint.properties.kit.KitSettings;
import dev.stillpoint.properties.kit.RequestRulesKit;
import dev.stillpoint.properties.kit.SnapshotConformanceKit;
import java.util.Optional;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * MongoDB runs the conformance kit [K1-K8] against the replica set named by
 * {@code STILLPOINT_TEST_MONGODB_URI}, in a scratch catalog and data database pair with random names
 * that is dropped after the class, however it ended. MongoDB declares unordered streams (the
 * {@code _id} is a netstring, not {@code KeyOrder}) [M3], 34 digits of N (Decimal128) [M4], and no
 * UpdateTable that waits for an open (nothing locks the catalog document).
 *
 * <p>The round-trip counter is {@link SnapshotRoundTrips}: what the server received, through command
 * monitoring. The seed's MongoDB mutants this class targets (a cursor without a batch size: K1's
 * "the counter advanced by at least two"; the data cursor or the index read outside the snapshot
 * session: K1's "no inserted item" and K2; the pauses outside the session: K2) could not be run here:
 * no MongoDB server is obtainable on the build machines.
 */
@AddLifecycleHook(NeedsMongoReplicaSet.class)
class MongoConformanceProperties implements SnapshotConformanceKit, RequestRulesKit {

    private static ScratchDatabases databases;

    private static synchronized ScratchDatabases databases() {
        if (databases == null) {
            databases = ScratchDatabases.on(MongoServers.replicaSet());
        }
        return databases;
    }

    @AfterContainer
    static synchronized void dropDatabases() {
        if (databases != null) {
            databases.close();
            databases = null;
        }
    }

    @Override
    public ConformanceFixture fixture() {
        ScratchDatabases scratch = databases();
        return new ConformanceFixture() {
            @Override
            public String backendName() {
                return "MongoDB (replica set, snapshot session)";
            }

            @Override
            public KitEngine start(KitSettings settings) {
                MongoStorage storage = MongoStorage.open(scratch.config()
                        .withPageBudget(settings.pageBudget())
                        .withObserver(settings.observer())
                        .withControlPlaneDelay(settings.controlPlaneDelay())
                .withSnapshotIdleLimit(settings.snapshotIdleLimit())
                        .withCommandListener(new SnapshotRoundTrips(scratch.data(), settings.observer())));
                return StorageKitEngine.of(storage, storage::recordRestore, storage::close);
            }

            @Override
            public java.util.Set<String> relationsInCatalog() {
                // MongoDB's own catalog: listCollections of the data and catalog databases.
                try (com.mongodb.client.MongoClient client = com.mongodb.client.MongoClients.create(scratch.uri())) {
                    java.util.Set<String> names = new java.util.TreeSet<>();
                    for (String database : java.util.List.of(scratch.data(), scratch.catalog())) {
                        client.getDatabase(database).listCollectionNames().forEach(n -> names.add(database + "." + n));
                    }
                    return names;
                }
            }

            @Override
            public void writeAttributeDefinitions(String accountId, String tableName,
                    java.util.List<dev.stillpoint.domain.key.AttributeDefinition> definitions) {
                try (com.mongodb.client.MongoClient client = com.mongodb.client.MongoClients.create(scratch.uri())) {
                    var tables = client.getDatabase(scratch.catalog())
                            .getCollection(CatalogDocuments.TABLES, org.bson.BsonDocument.class);
                    var filter = com.mongodb.client.model.Filters.and(
                            com.mongodb.client.model.Filters.eq("account_id", accountId),
                            com.mongodb.client.model.Filters.eq("table_name", tableName));
                    String json = dev.stillpoint.itemjson.CatalogJson.definitions(definitions);
                    if (tables.updateOne(filter, com.mongodb.client.model.Updates.set("attribute_definitions", json))
                            .getMatchedCount() != 1) {
                        throw new IllegalStateException("no catalog document for " + tableName);
                    }
                }
            }

            @Override
            public Expectations expectations() {
                return new Expectations(false, ItemDocuments.NUMBER_DIGITS, Optional.empty());
            }
        };
    }
}
