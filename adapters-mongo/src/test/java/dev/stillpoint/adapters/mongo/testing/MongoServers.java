package dev.stillpoint.adapters.mongo.testing;

import com.mongodb.ConnectionString;
import org.opentest4j.TestAbortedException;

/**
 * The MongoDB servers the live tests run against. None can be started by the suite (no server binary
 * is obtainable on the build machines: see the toolchain notes), so they are named from outside:
 * {@code STILLPOINT_TEST_MONGODB_URI} a replica set member (snapshots need one),
 * {@code STILLPOINT_TEST_MONGODB_STANDALONE_URI} a standalone server (for the Unsupported answer).
 * Without one a live test is aborted (reported as skipped, never as passed); with
 * {@code STILLPOINT_TEST_MONGODB_REQUIRED} set it fails instead.
 */
public final class MongoServers {

    public static final String URI = "STILLPOINT_TEST_MONGODB_URI";
    public static final String STANDALONE_URI = "STILLPOINT_TEST_MONGODB_STANDALONE_URI";
    public static final String REQUIRED = "STILLPOINT_TEST_MONGODB_REQUIRED";

    private MongoServers() {
    }

    /** The replica set's URI, or the test is aborted (failed when required). */
    public static String replicaSet() {
        return named(URI, "a replica set member");
    }

    /** The standalone server's URI, or the test is aborted (failed when required). */
    public static String standalone() {
        return named(STANDALONE_URI, "a standalone server");
    }

    private static String named(String variable, String what) {
        String uri = System.getenv(variable);
        if (uri == null || uri.isBlank()) {
            String why = variable + " is not set: the live MongoDB tests need " + what
                    + " (README: running the MongoDB live suite)";
            if (System.getenv(REQUIRED) != null) {
                throw new AssertionError(REQUIRED + " is set, but " + why);
            }
            throw new TestAbortedException(why);
        }
        new ConnectionString(uri.trim());   // a malformed URI is a failure, not a skip
        return uri.trim();
    }

    /** {@code uri} with one more option ({@code name=value}). */
    public static String withOption(String uri, String option) {
        int query = uri.indexOf('?');
        if (query < 0) {
            int hostsEnd = uri.indexOf('/', uri.indexOf("://") + 3);
            return (hostsEnd < 0 ? uri + "/" : uri) + "?" + option;
        }
        return uri + (query == uri.length() - 1 ? "" : "&") + option;
    }
}
