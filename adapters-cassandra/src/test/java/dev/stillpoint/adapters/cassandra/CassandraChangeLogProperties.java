package dev.stillpoint.adapters.cassandra;

import dev.stillpoint.ports.in.Storage;
import dev.stillpoint.properties.kit.ChangeLogConformanceKit;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * Cassandra runs the change log kit as a backend without the log [I1, C1]: a table asking for one at
 * creation or later is refused UNSUPPORTED naming it, and nothing is created; the log's own rules return
 * at once on its capability. One engine serves every rule (an opening runs the catalog's schema steps,
 * slow on a forked node): the kit's close of it is ignored, and its keyspaces go when the class is done.
 */
class CassandraChangeLogProperties implements ChangeLogConformanceKit {

    private static CassandraStorage shared;

    @Override
    public synchronized Storage openChangeLogStorage() {
        if (shared == null) {
            shared = TestCassandra.open();
        }
        CassandraStorage storage = shared;
        return (Storage) Proxy.newProxyInstance(Storage.class.getClassLoader(), new Class<?>[] {Storage.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("close") && method.getParameterCount() == 0) {
                        return null;
                    }
                    try {
                        return method.invoke(storage, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @AfterContainer
    static synchronized void dropKeyspaces() {
        TestCassandra.dropAndClose(shared);
        shared = null;
    }
}
