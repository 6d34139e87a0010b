package dev.stillpoint.adapters.cassandra;

import dev.stillpoint.adapters.cassandra.node.CassandraNode;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateTableRequest;
import com.datastax.oss.driver.api.core.cql.Row;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Engines for the tests: each test class opens one engine on the shared node under a random
 * keyspace prefix and drops every keyspace of that prefix afterwards.
 */
final class TestCassandra {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

    private TestCassandra() {
    }

    /** A fresh engine on the shared node, under a random prefix {@code t_<10 random>}. */
    static CassandraStorage open() {
        return CassandraStorage.open(config());
    }

    /** A configuration for a fresh random prefix on the shared node. */
    static CassandraConfig config() {
        return CassandraNode.shared().config().withKeyspacePrefix("t_" + random(10));
    }

    /** Drops every keyspace of the engine's prefix, then closes it (the engine's cached keyspaces go with it). */
    static void dropAndClose(CassandraStorage storage) {
        if (storage == null) {
            return;
        }
        try {
            for (String keyspace : keyspaces(storage)) {
                storage.cql().ddl("dropping keyspace " + keyspace, "DROP KEYSPACE IF EXISTS " + DataNames.identifier(keyspace));
            }
        } finally {
            storage.close();
        }
    }

    /** Every keyspace of the engine's prefix, as the cluster lists them. */
    static List<String> keyspaces(CassandraStorage storage) {
        List<String> out = new ArrayList<>();
        for (Row row : storage.cql().read("listing keyspaces", "SELECT keyspace_name FROM system_schema.keyspaces")) {
            String name = row.getString("keyspace_name");
            if (name.startsWith(storage.config().keyspacePrefix() + "_")) {
                out.add(name);
            }
        }
        return out;
    }

    /** The catalog schema versions the engine's catalog has applied. */
    static Set<Integer> catalogSchemaVersions(CassandraStorage storage) {
        return new LinkedHashSet<>(CatalogSchema.appliedVersions(storage.cql(), storage.config().catalogKeyspace()));
    }

    /** Sends {@code signal} (STOP, CONT) to the node's process: a node that stops answering, then answers again. */
    static void signal(long pid, String signal) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
        if (kill.waitFor() != 0) {
            throw new IllegalStateException("kill -" + signal + " " + pid + " exited " + kill.exitValue());
        }
    }

    static String random(int length) {
        StringBuilder b = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            b.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
        }
        return b.toString();
    }

    /** A fresh account id: twelve digits. */
    static String account() {
        return String.format("%012d", Math.floorMod(RANDOM.nextLong(), 1_000_000_000_000L));
    }

    /** A fresh table name. */
    static String tableName(String label) {
        return label + "-" + random(8);
    }

    static CreateTableRequest composite(String account, String table, ScalarType pk, ScalarType sk) {
        return new CreateTableRequest(account, table, KeySchema.composite("pk", "sk"),
                List.of(new AttributeDefinition("pk", pk), new AttributeDefinition("sk", sk)),
                List.of(), List.of(), Optional.empty());
    }

    static CreateTableRequest hashOnly(String account, String table, ScalarType pk) {
        return new CreateTableRequest(account, table, KeySchema.hashOnly("pk"),
                List.of(new AttributeDefinition("pk", pk)), List.of(), List.of(), Optional.empty());
    }

    static Item item(Object... namesAndValues) {
        java.util.LinkedHashMap<String, AttributeValue> m = new java.util.LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            m.put((String) namesAndValues[i], (AttributeValue) namesAndValues[i + 1]);
        }
        return Item.of(m);
    }

}
