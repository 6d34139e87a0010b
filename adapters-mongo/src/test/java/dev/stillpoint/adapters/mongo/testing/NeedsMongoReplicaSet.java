package dev.stillpoint.adapters.mongo.testing;

import net.jqwik.api.lifecycle.LifecycleContext;
import net.jqwik.api.lifecycle.SkipExecutionHook;

/**
 * Skips a jqwik container when no replica set is named, before any property runs (a property's
 * tries would otherwise count the missing server as a rejected sample and fail as "exhausted").
 * With {@code STILLPOINT_TEST_MONGODB_REQUIRED} set it never skips, so the tests fail on the missing server.
 */
public final class NeedsMongoReplicaSet implements SkipExecutionHook {

    @Override
    public SkipResult shouldBeSkipped(LifecycleContext context) {
        String uri = System.getenv(MongoServers.URI);
        if ((uri == null || uri.isBlank()) && System.getenv(MongoServers.REQUIRED) == null) {
            return SkipResult.skip(MongoServers.URI + " is not set: the MongoDB conformance kit needs a replica set"
                    + " member (README: running the MongoDB live suite)");
        }
        return SkipResult.doNotSkip();
    }
}
