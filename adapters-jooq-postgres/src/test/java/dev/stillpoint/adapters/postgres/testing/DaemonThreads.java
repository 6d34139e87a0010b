package dev.stillpoint.adapters.postgres.testing;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** A test class's helper threads: daemons named for the class, so a hung one never keeps the JVM up. */
public final class DaemonThreads {

    private DaemonThreads() {
    }

    /** A cached pool of daemon threads named {@code name}. */
    public static ExecutorService named(String name) {
        return Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
    }
}
