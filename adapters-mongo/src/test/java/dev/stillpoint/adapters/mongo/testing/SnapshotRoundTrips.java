package dev.stillpoint.adapters.mongo.testing;

import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import dev.stillpoint.ports.out.ReadObserver;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.bson.BsonDocument;
import org.bson.BsonValue;

/**
 * The kit's round-trip counter on MongoDB, whose driver hides getMore: through command monitoring,
 * each {@code find} the server receives on the data database at readConcern {@code snapshot} (a
 * snapshot stream's; a GSI backfill reads at majority and is not counted) and each {@code getMore}
 * on a cursor one of those finds returned. So the count is the stream's paging as the server saw it,
 * not an echo of the batch size the stream asked for.
 */
public final class SnapshotRoundTrips implements CommandListener {

    private final String dataDatabase;
    private final ReadObserver observer;
    private final Set<Long> snapshotCursors = ConcurrentHashMap.newKeySet();
    private final Map<Integer, Boolean> snapshotFinds = new ConcurrentHashMap<>();
    private final AtomicLong counted = new AtomicLong();

    public SnapshotRoundTrips(String dataDatabase, ReadObserver observer) {
        this.dataDatabase = dataDatabase;
        this.observer = observer;
    }

    /** Round trips counted so far. */
    public long count() {
        return counted.get();
    }

    @Override
    public void commandStarted(CommandStartedEvent event) {
        if (!event.getDatabaseName().equals(dataDatabase)) {
            return;
        }
        BsonDocument command = event.getCommand();
        if (event.getCommandName().equals("find") && snapshotLevel(command)) {
            snapshotFinds.put(event.getRequestId(), true);
            tick();
        } else if (event.getCommandName().equals("getMore") && command.get("getMore").isInt64()
                && snapshotCursors.contains(command.getInt64("getMore").getValue())) {
            tick();
        }
    }

    @Override
    public void commandSucceeded(CommandSucceededEvent event) {
        if (snapshotFinds.remove(event.getRequestId()) != null) {
            BsonValue cursor = event.getResponse().get("cursor");
            if (cursor != null && cursor.isDocument() && cursor.asDocument().isInt64("id")) {
                long id = cursor.asDocument().getInt64("id").getValue();
                if (id != 0) {
                    snapshotCursors.add(id);
                }
            }
        }
    }

    private void tick() {
        counted.incrementAndGet();
        observer.roundTrip();
    }

    private static boolean snapshotLevel(BsonDocument command) {
        BsonValue readConcern = command.get("readConcern");
        return readConcern != null && readConcern.isDocument()
                && "snapshot".equals(readConcern.asDocument().getString("level", new org.bson.BsonString("")).getValue());
    }
}
