package dev.stillpoint.adapters.postgres.engine;

import dev.stillpoint.properties.bench.PutRounds;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Counts the round trips pgjdbc makes while some work runs: every round trip ends with a Sync message
 * (the server answers ReadyForQuery), which pgjdbc logs at FINEST as {@code " FE=> Sync"}. The logger
 * is at FINEST only while counting, so the timed rounds pay nothing for it.
 */
final class RoundTrips {

    private static final Logger PROTOCOL = Logger.getLogger("org.postgresql.core.v3.QueryExecutorImpl");

    private RoundTrips() {
    }

    /** The Sync messages pgjdbc sent while {@code work} ran, on any connection. */
    static long count(PutRounds.Work work) throws Exception {
        AtomicLong syncs = new AtomicLong();
        Handler counter = new Handler() {
            @Override
            public void publish(LogRecord r) {
                if (r.getMessage() != null && r.getMessage().startsWith(" FE=> Sync")) {
                    syncs.incrementAndGet();
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        counter.setLevel(Level.ALL);
        Level before = PROTOCOL.getLevel();
        PROTOCOL.setLevel(Level.FINEST);
        PROTOCOL.addHandler(counter);
        try {
            work.run();
        } finally {
            PROTOCOL.removeHandler(counter);
            PROTOCOL.setLevel(before);
        }
        return syncs.get();
    }
}
