package dev.stillpoint.properties.request;

import dev.stillpoint.domain.error.StorageException;

/** The StorageException a call throws, for assertions on its reason and message; a call that returns fails the test. */
public final class Refusals {
    private Refusals() {
    }

    /**
     * The StorageException {@code call} throws.
     *
     * @param call the call that must throw
     * @return what it threw
     */
    public static StorageException thrownBy(Runnable call) {
        try {
            call.run();
        } catch (StorageException e) {
            return e;
        }
        throw new AssertionError("the call returned; it must throw a StorageException");
    }
}
