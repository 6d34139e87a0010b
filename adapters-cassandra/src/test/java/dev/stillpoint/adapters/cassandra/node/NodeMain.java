package dev.stillpoint.adapters.cassandra.node;

import java.io.IOException;
import java.io.InputStream;

/**
 * The test node's main class: starts {@code CassandraDaemon} in this JVM after arming a watchdog
 * on standard input. The test JVM holds the other end of that pipe and never writes to it; when the
 * test JVM ends, however it ends (a SIGKILL included, which runs no shutdown hook), the pipe
 * closes, the read returns end-of-file and the node halts at once. So no node outlives its tests.
 * Cassandra is loaded by name: it is on the node's classpath only, never on this module's.
 */
public final class NodeMain {

    private NodeMain() {
    }

    public static void main(String[] args) throws Exception {
        Thread watchdog = new Thread(() -> {
            InputStream in = System.in;
            try {
                while (in.read() >= 0) {
                    // The parent never writes; anything read is ignored.
                }
            } catch (IOException ignored) {
                // A broken pipe means the same as end-of-file: the parent is gone.
            }
            Runtime.getRuntime().halt(3);
        }, "stillpoint-parent-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
        Class.forName("org.apache.cassandra.service.CassandraDaemon")
                .getMethod("main", String[].class)
                .invoke(null, (Object) args);
    }
}
