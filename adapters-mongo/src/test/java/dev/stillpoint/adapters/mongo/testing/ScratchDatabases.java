package dev.stillpoint.adapters.mongo.testing;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import dev.stillpoint.adapters.mongo.MongoConfig;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;

/**
 * A catalog and a data database with random names ({@code sp_test_<16 hex>_catalog} and
 * {@code _data}), for one test class or test. {@link #close()} drops exactly these two, by the names
 * it generated, even when the test failed; it never touches a database it did not create, so a URI
 * pointing at a server with real data is safe.
 */
public final class ScratchDatabases implements AutoCloseable {

    private static final SecureRandom RANDOM = new SecureRandom();

    private final String uri;
    private final String token;

    private ScratchDatabases(String uri) {
        this.uri = uri;
        byte[] bytes = new byte[8];
        RANDOM.nextBytes(bytes);
        this.token = "sp_test_" + HexFormat.of().formatHex(bytes);
    }

    /** New names on the server at {@code uri}; nothing is created until an engine uses them. */
    public static ScratchDatabases on(String uri) {
        return new ScratchDatabases(uri);
    }

    public String catalog() {
        return token + "_catalog";
    }

    public String data() {
        return token + "_data";
    }

    /** A configuration for these databases, production defaults otherwise. */
    public MongoConfig config() {
        return MongoConfig.of(uri).withDatabases(catalog(), data());
    }

    public String uri() {
        return uri;
    }

    @Override
    public void close() {
        try (MongoClient client = MongoClients.create(uri)) {
            for (String name : List.of(catalog(), data())) {
                client.getDatabase(name).drop();
            }
        }
    }
}
