package dev.stillpoint.adapters.mongo.engine;

import com.mongodb.client.ClientSession;
import dev.stillpoint.adapters.mongo.storage.KeyIds;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.request.ItemWrite;
import dev.stillpoint.ports.out.ItemUnit;
import dev.stillpoint.ports.out.StorageTable;
import java.util.Optional;

/**
 * One unit of item work on MongoDB: a transaction's session on a replica set, or no session on a
 * standalone server, where every change is applied on its own ({@link #atomic()} false).
 */
final class MongoItemUnit implements ItemUnit {

    private final MongoTables tables;
    private final ClientSession session;

    MongoItemUnit(MongoTables tables, ClientSession session) {
        this.tables = tables;
        this.session = session;
    }

    @Override
    public boolean atomic() {
        return session != null;
    }

    @Override
    public Optional<StorageTable> load(String accountId, String tableName) {
        return tables.load(session, accountId, tableName);
    }

    @Override
    public void upsert(StorageTable table, ItemWrite write) {
        tables.store(session, (CatalogDocuments.Loaded) table, write);
    }

    @Override
    public void delete(StorageTable table, Key key) {
        tables.remove(session, (CatalogDocuments.Loaded) table, KeyIds.of(key));
    }
}
