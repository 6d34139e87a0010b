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
 * INFO, once per JVM, logger {@code org.jooq.impl.DefaultExecuteContext.logVersionSupport}) has no
 * switch but the logger's level; an embedder sets that logger to WARN in its logging configuration.
 */
public final class JooqBanner {

    /** jOOQ's property that, true, skips the logo. */
    public static final String NO_LOGO = "org.jooq.no-logo";
    /** jOOQ's property that, true, skips the tip of the day. */
    public static final String NO_TIPS = "org.jooq.no-tips";

    private JooqBanner() {
    }

    /** Turns the logo and the tip off for this JVM unless the embedder set either property itself. */
    public static void off() {
        unlessSet(NO_LOGO);
        unlessSet(NO_TIPS);
    }

    private static void unlessSet(String property) {
        // Atomic against another thread's set: System properties are a synchronized Hashtable.
        System.getProperties().putIfAbsent(property, "true");
    }
}
