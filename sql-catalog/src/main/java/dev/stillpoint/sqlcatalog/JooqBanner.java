package dev.stillpoint.sqlcatalog;

/**
 * jOOQ's start-up banner, off unless the embedder asks for it [issue 29]. jOOQ 3.19 logs its logo (with
 * its version) and a "tip of the day" at INFO from the static initialiser of the class that renders
 * SQL, once per JVM, and offers no {@code Settings} switch for them: only the system properties
 * {@code org.jooq.no-logo} and {@code org.jooq.no-tips}, read once there (seen in the 3.19.39 jar:
 * {@code DefaultRenderContext.<clinit>} calls {@code Boolean.getBoolean} on each). So a storage facade
 * calls {@link #off()} before jOOQ renders its first statement, and it sets each property that is
 * unset; one the embedder set, to any value ({@code -Dorg.jooq.no-logo=false} to see the logo), is left
 * as it is. Nothing else is touched, and jOOQ's warnings still reach the embedder's logging.
 *
 * <p>jOOQ's one-line dialect check ({@code Version : Database version is supported by dialect ...},
 * INFO, once per JVM, so on every start of a command-line run) is quiet by default too. What jOOQ 3.19
 * offers (seen in the 3.19.39 jar): no {@code Settings} flag (the check in
 * {@code DefaultExecuteContext.connection} runs for every versioned dialect, SQLITE and POSTGRES both,
 * whenever that logger is enabled for WARN); {@code JooqLogger.globalThreshold}, which would silence all
 * of jOOQ's logging in the JVM, the embedder's own jOOQ included; the SLF4J logger's level, which belongs
 * to the embedder's logging backend and which a library cannot set through {@code slf4j-api}; and a
 * per-logger threshold, the system property {@value #VERSION_LINE} that {@code JooqLogger.threshold()}
 * reads on every call. The last is the narrowest switch there is: it touches this one jOOQ logger and
 * nothing else, so it is set to {@code WARN} (the line is INFO; a version mismatch, WARN, still shows)
 * unless the embedder set it ({@code -D}{@value #VERSION_LINE}{@code =INFO} shows the line again).
 */
public final class JooqBanner {

    /** jOOQ's property that, true, skips the logo. */
    public static final String NO_LOGO = "org.jooq.no-logo";
    /** jOOQ's property that, true, skips the tip of the day. */
    public static final String NO_TIPS = "org.jooq.no-tips";

    /** jOOQ's per-logger threshold of the dialect-version line's logger (see the class comment). */
    public static final String VERSION_LINE = "org.jooq.log.org.jooq.impl.DefaultExecuteContext.logVersionSupport";

    private JooqBanner() {
    }

    /**
     * Turns the logo and the tip off, and the dialect-version line down to WARN, for this JVM, leaving
     * each property the embedder set itself as it is.
     */
    public static void off() {
        unlessSet(NO_LOGO, "true");
        unlessSet(NO_TIPS, "true");
        unlessSet(VERSION_LINE, "WARN");
    }

    private static void unlessSet(String property, String value) {
        // Atomic against another thread's set: System properties are a synchronized Hashtable.
        System.getProperties().putIfAbsent(property, value);
    }
}
