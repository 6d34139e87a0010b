package dev.stillpoint.adapters.mongo.engine;

import dev.stillpoint.domain.error.StorageException;

/** Lets the live tests outside this package map a driver failure as the adapter does. */
public final class MongoFailuresAccess {

    private MongoFailuresAccess() {
    }

    public static StorageException map(Throwable failure) {
        return MongoFailures.map("a test read", (RuntimeException) failure);
    }
}
