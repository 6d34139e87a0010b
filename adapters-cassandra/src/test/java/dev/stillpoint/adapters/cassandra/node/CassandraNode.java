package dev.stillpoint.adapters.cassandra.node;

import dev.stillpoint.adapters.cassandra.CassandraConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.opentest4j.TestAbortedException;

/**
 * The one Cassandra node of a test JVM, independent of JUnit and jqwik: {@link #shared()} starts it
 * on first use and every later call returns the same node; a shutdown hook stops it when the JVM
 * ends, whether the tests passed or failed.
 *
 * <p>The node is a real Cassandra 5.0.9 ({@code org.apache.cassandra:cassandra-all}) in a forked
 * {@code java}: its classpath is the file {@code target/cassandra-node.classpath} that the build
 * writes (see this module's pom: the server is never on this module's classpath); its folder is
 * {@code target/cassandra-node} (the generated {@code cassandra.yaml}, {@code logback.xml}, data,
 * commit log, {@code node.log}, and {@code tmp} as {@code java.io.tmpdir} and {@code jna.tmpdir}, so
 * native libraries are not unpacked to /tmp or ~/.cache); it listens on free loopback ports; it is
 * ready when its log says {@code Startup complete} (within {@value #STARTUP_LIMIT_SECONDS} s). The
 * hook kills the node's process tree and removes its data, keeping {@code node.log} and
 * {@code footprint.txt} (start time, RSS and peak RSS). {@link NodeMain} also halts the node when
 * this JVM dies without running hooks.
 *
 * <p>{@value #CONTACT_ENV}={@code host:port} points the tests at an outside cluster instead (its
 * local datacenter from {@value #DC_ENV}, default {@code datacenter1}). When the node cannot start,
 * the tests fail if {@value #REQUIRED_ENV} (or {@value #ALL_REQUIRED_ENV}) is set, as CI sets it,
 * and are skipped otherwise.
 */
public final class CassandraNode {

    public static final String CONTACT_ENV = "STILLPOINT_TEST_CASSANDRA_CONTACT";
    public static final String DC_ENV = "STILLPOINT_TEST_CASSANDRA_DC";
    public static final String REQUIRED_ENV = "STILLPOINT_TEST_CASSANDRA_REQUIRED";
    public static final String ALL_REQUIRED_ENV = "STILLPOINT_TEST_SERVERS_REQUIRED";
    // Generous: at a load average of 25 on 2 cores the node was still initialising system tables at 120 s
    // (a clean-clone .ci/run beside two CPU burners, 2026-12-03); a node that dies fails at once below.
    static final int STARTUP_LIMIT_SECONDS = 480;
    static final String READY_LINE = "Startup complete";

    /** Cassandra's own {@code conf/jvm17-server.options} module flags: without them the node dies at once. */
    static final List<String> JVM17_FLAGS = List.of(
            "-Djdk.attach.allowAttachSelf=true",
            "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
            "--add-exports", "java.management.rmi/com.sun.jmx.remote.internal.rmi=ALL-UNNAMED",
            "--add-exports", "java.rmi/sun.rmi.registry=ALL-UNNAMED",
            "--add-exports", "java.rmi/sun.rmi.server=ALL-UNNAMED",
            "--add-exports", "java.sql/java.sql=ALL-UNNAMED",
            "--add-exports", "java.base/java.lang.ref=ALL-UNNAMED",
            "--add-exports", "jdk.unsupported/sun.misc=ALL-UNNAMED",
            "--add-exports", "jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED",
            "--add-exports", "jdk.attach/sun.tools.attach=ALL-UNNAMED",
            "--add-opens", "java.base/java.lang.module=ALL-UNNAMED",
            "--add-opens", "java.base/jdk.internal.loader=ALL-UNNAMED",
            "--add-opens", "java.base/jdk.internal.ref=ALL-UNNAMED",
            "--add-opens", "java.base/jdk.internal.reflect=ALL-UNNAMED",
            "--add-opens", "java.base/jdk.internal.math=ALL-UNNAMED",
            "--add-opens", "java.base/jdk.internal.module=ALL-UNNAMED",
            "--add-opens", "java.base/jdk.internal.util.jar=ALL-UNNAMED",
            "--add-opens", "jdk.management/com.sun.management.internal=ALL-UNNAMED",
            "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens", "java.base/java.io=ALL-UNNAMED",
            "--add-opens", "java.base/java.lang.reflect=ALL-UNNAMED",
            "--add-opens", "jdk.compiler/com.sun.tools.javac=ALL-UNNAMED",
            "--add-opens", "java.base/java.lang=ALL-UNNAMED",
            "--add-opens", "java.base/java.util=ALL-UNNAMED");

    /** Where the tests reach Cassandra. */
    public record Contact(String host, int port, String localDatacenter, Optional<Started> started) {
        /** An engine configuration for this contact (prefix and timeouts are the caller's to set). */
        public CassandraConfig config() {
            return CassandraConfig.of(host, port).withLocalDatacenter(localDatacenter);
        }
    }

    /** A node this JVM started. */
    public record Started(long pid, java.time.Instant startedAt, Duration startTime, Path folder) {
        /** The node's resident set size now, in KiB, as {@code ps -o rss=} reports it. */
        public long rssKiB() {
            return psRss(pid);
        }

        /** The node's peak resident set size so far (VmHWM), in KiB; -1 when unknown. */
        public long peakRssKiB() {
            return procStatus(pid, "VmHWM:");
        }
    }

    private static Contact shared;
    private static RuntimeException failure;

    private CassandraNode() {
    }

    /**
     * The node of this JVM, started on first use. Fails the calling test when the node cannot start
     * and a server is required; aborts it (skipped) otherwise.
     */
    public static synchronized Contact shared() {
        if (shared == null && failure == null) {
            try {
                shared = locate();
            } catch (Exception e) {
                failure = new IllegalStateException("the Cassandra test node could not start: " + e.getMessage(), e);
            }
        }
        if (failure != null) {
            if (required()) {
                throw new AssertionError(failure.getMessage() + " (" + REQUIRED_ENV + " is set, so this is a failure)",
                        failure);
            }
            throw new TestAbortedException(failure.getMessage() + " (set " + REQUIRED_ENV + " to fail instead)", failure);
        }
        return shared;
    }

    static boolean required() {
        return isSet(REQUIRED_ENV) || isSet(ALL_REQUIRED_ENV);
    }

    private static boolean isSet(String name) {
        String v = System.getenv(name);
        return v != null && !v.isBlank();
    }

    private static Contact locate() throws IOException, InterruptedException {
        String outside = System.getenv(CONTACT_ENV);
        String dc = Optional.ofNullable(System.getenv(DC_ENV)).filter(s -> !s.isBlank()).orElse("datacenter1");
        if (outside != null && !outside.isBlank()) {
            CassandraConfig parsed = CassandraConfig.parse(outside);
            return new Contact(parsed.host(), parsed.port(), dc, Optional.empty());
        }
        return start();
    }

    private static Contact start() throws IOException, InterruptedException {
        Path build = Path.of(Optional.ofNullable(System.getenv("STILLPOINT_BUILD_DIR")).orElse("target")).toAbsolutePath();
        Path classpathFile = build.resolve("cassandra-node.classpath");
        if (!Files.isRegularFile(classpathFile)) {
            throw new IllegalStateException(classpathFile + " is missing; the build writes it in generate-test-resources"
                    + " (run the tests through Maven)");
        }
        List<String> classpath = new ArrayList<>();
        classpath.add(ownClasses());
        Files.readAllLines(classpathFile, StandardCharsets.UTF_8).stream().map(String::strip)
                .filter(s -> !s.isEmpty()).forEach(classpath::add);

        Path folder = build.resolve("cassandra-node");
        deleteRecursively(folder);
        for (String dir : List.of("data", "commitlog", "saved_caches", "hints", "cdc_raw", "tmp", "logs")) {
            Files.createDirectories(folder.resolve(dir));
        }
        int[] ports = freePorts(3);
        int nativePort = ports[0];
        int storagePort = ports[1];
        int sslStoragePort = ports[2];
        Files.writeString(folder.resolve("cassandra.yaml"), yaml(folder, nativePort, storagePort, sslStoragePort));
        Files.writeString(folder.resolve("logback.xml"), LOGBACK);

        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of("-Xms256m", "-Xmx256m", "-XX:+UseG1GC", "-XX:-UsePerfData",
                "-XX:+ExitOnOutOfMemoryError", "-XX:+UseStringDeduplication"));
        command.addAll(JVM17_FLAGS);
        command.addAll(List.of(
                "-Dio.netty.tryReflectionSetAccessible=true",
                "-Dcassandra.config=" + folder.resolve("cassandra.yaml").toUri(),
                "-Dcassandra-foreground=yes",
                "-Dcassandra.skip_wait_for_gossip_to_settle=0",
                "-Dcassandra.ring_delay_ms=0",
                "-Dcassandra.superuser_setup_delay_ms=0",
                // Test node only: schema tables are not flushed on every change, system writes are not synced.
                "-Dcassandra.test.flush_local_schema_changes=false",
                "-Dcassandra.unsafesystem=true",
                "-Dcassandra.logdir=" + folder.resolve("logs"),
                "-Dlogback.configurationFile=" + folder.resolve("logback.xml").toUri(),
                "-Djava.io.tmpdir=" + folder.resolve("tmp"),
                "-Djna.tmpdir=" + folder.resolve("tmp"),
                "-cp", String.join(java.io.File.pathSeparator, classpath),
                NodeMain.class.getName()));

        java.time.Instant startedAt = java.time.Instant.now();
        long t0 = System.nanoTime();
        Path log = folder.resolve("node.log");
        Process process = new ProcessBuilder(command)
                .directory(folder.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        // Standard input stays a pipe this JVM holds open: NodeMain's watchdog halts the node when it closes.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(process, folder, Duration.ofNanos(System.nanoTime() - t0)),
                "stillpoint-cassandra-node-stop"));
        long deadline = t0 + TimeUnit.SECONDS.toNanos(STARTUP_LIMIT_SECONDS);
        while (true) {
            String text = Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
            if (text.contains(READY_LINE)) {
                break;
            }
            if (!process.isAlive()) {
                throw new IllegalStateException("the node exited with code " + process.exitValue() + "; the end of "
                        + log + ":\n" + tail(text, 25));
            }
            if (System.nanoTime() > deadline) {
                kill(process);
                throw new IllegalStateException("the node printed no '" + READY_LINE + "' within " + STARTUP_LIMIT_SECONDS
                        + " s; the end of " + log + ":\n" + tail(text, 25));
            }
            Thread.sleep(50);
        }
        Duration startTime = Duration.ofNanos(System.nanoTime() - t0);
        Started started = new Started(process.pid(), startedAt, startTime, folder);
        Files.writeString(folder.resolve("footprint.txt"), "started in " + startTime.toMillis() + " ms, pid "
                + process.pid() + ", native port " + nativePort + ", RSS after start " + started.rssKiB() + " KiB\n");
        System.out.println("[cassandra-node] Cassandra 5.0.9 started in " + startTime.toMillis() + " ms on 127.0.0.1:"
                + nativePort + " (pid " + process.pid() + ", RSS " + started.rssKiB() + " KiB, folder " + folder + ")");
        return new Contact("127.0.0.1", nativePort, "datacenter1", Optional.of(started));
    }

    private static String ownClasses() {
        try {
            return Path.of(NodeMain.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void stop(Process process, Path folder, Duration sinceStart) {
        long rss = psRss(process.pid());
        long peak = procStatus(process.pid(), "VmHWM:");
        kill(process);
        try {
            Files.writeString(folder.resolve("footprint.txt"), "at stop, " + sinceStart.toMillis()
                    + " ms after the start: RSS " + rss + " KiB, peak RSS (VmHWM) " + peak + " KiB\n",
                    java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
            for (String dir : List.of("data", "commitlog", "saved_caches", "hints", "cdc_raw", "tmp")) {
                deleteRecursively(folder.resolve(dir));
            }
        } catch (IOException | UncheckedIOException e) {
            System.err.println("[cassandra-node] could not clean " + folder + ": " + e);
        }
    }

    private static void kill(Process process) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            process.waitFor(20, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static long psRss(long pid) {
        try {
            Process ps = new ProcessBuilder("ps", "-o", "rss=", "-p", Long.toString(pid)).redirectErrorStream(true).start();
            String out = new String(ps.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            ps.waitFor(5, TimeUnit.SECONDS);
            return out.isEmpty() ? -1 : Long.parseLong(out);
        } catch (IOException | NumberFormatException e) {
            return procStatus(pid, "VmRSS:");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    static long procStatus(long pid, String field) {
        try (Stream<String> lines = Files.lines(Path.of("/proc", Long.toString(pid), "status"))) {
            return lines.filter(l -> l.startsWith(field)).findFirst()
                    .map(l -> Long.parseLong(l.substring(field.length()).replace("kB", "").strip())).orElse(-1L);
        } catch (IOException | UncheckedIOException | NumberFormatException e) {
            return -1;
        }
    }

    private static int[] freePorts(int count) throws IOException {
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            int[] ports = new int[count];
            for (int i = 0; i < count; i++) {
                ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                s.setReuseAddress(true);
                sockets.add(s);
                ports[i] = s.getLocalPort();
            }
            return ports;
        } finally {
            for (ServerSocket s : sockets) {
                s.close();
            }
        }
    }

    private static String yaml(Path folder, int nativePort, int storagePort, int sslStoragePort) {
        return String.join("\n",
                "cluster_name: stillpoint-test",
                "num_tokens: 1",
                "initial_token: 0",
                "partitioner: org.apache.cassandra.dht.Murmur3Partitioner",
                "endpoint_snitch: SimpleSnitch",
                "seed_provider:",
                "  - class_name: org.apache.cassandra.locator.SimpleSeedProvider",
                "    parameters:",
                "      - seeds: \"127.0.0.1:" + storagePort + "\"",
                "listen_address: 127.0.0.1",
                "rpc_address: 127.0.0.1",
                "storage_port: " + storagePort,
                "ssl_storage_port: " + sslStoragePort,
                "native_transport_port: " + nativePort,
                "start_native_transport: true",
                "data_file_directories:",
                "  - " + folder.resolve("data"),
                "commitlog_directory: " + folder.resolve("commitlog"),
                "saved_caches_directory: " + folder.resolve("saved_caches"),
                "hints_directory: " + folder.resolve("hints"),
                "cdc_raw_directory: " + folder.resolve("cdc_raw"),
                "commitlog_sync: periodic",
                "commitlog_sync_period: 10000ms",
                "commitlog_segment_size: 8MiB",
                "authenticator: AllowAllAuthenticator",
                "authorizer: AllowAllAuthorizer",
                "memtable_heap_space: 64MiB",
                "memtable_offheap_space: 64MiB",
                // Dropped tables are not snapshotted: the node's data is thrown away anyway.
                "auto_snapshot: false",
                "") ;
    }

    private static final String LOGBACK = String.join("\n",
            "<configuration>",
            "  <appender name=\"OUT\" class=\"ch.qos.logback.core.ConsoleAppender\">",
            "    <encoder><pattern>%-5level [%thread] %date{ISO8601} %F:%L - %msg%n</pattern></encoder>",
            "  </appender>",
            "  <root level=\"INFO\"><appender-ref ref=\"OUT\"/></root>",
            "</configuration>",
            "");

    private static String tail(String text, int lines) {
        String[] all = text.split("\n");
        return String.join("\n", java.util.Arrays.copyOfRange(all, Math.max(0, all.length - lines), all.length));
    }

    private static void deleteRecursively(Path path) throws IOException {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(path)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
