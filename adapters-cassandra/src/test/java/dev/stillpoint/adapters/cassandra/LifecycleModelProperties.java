package dev.stillpoint.adapters.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.request.RequestKey;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * The table lifecycle against a model [C2, D4, D5]: generated sequences of CreateTable, DeleteTable,
 * DescribeTable, ListTables and item writes on a few names. The model is a map from name to key
 * type: a CreateTable of a name in it is ResourceInUse, a DeleteTable or DescribeTable of a name not
 * in it is TableNotFound, DescribeTable answers ACTIVE (never CREATING, never DELETING: both are
 * synchronous here), ListTables lists exactly the model's names in order, and a table created afresh
 * holds none of its predecessor's items.
 */
class LifecycleModelProperties {

    static CassandraStorage storage;
    static final String ACCOUNT = TestCassandra.account();

    @BeforeContainer
    static void open() {
        storage = TestCassandra.open();
    }

    @AfterContainer
    static void close() {
        TestCassandra.dropAndClose(storage);
    }

    sealed interface Action permits Create, Delete, Describe, ListAll, Put {
    }

    record Create(int name, ScalarType type) implements Action {
    }

    record Delete(int name) implements Action {
    }

    record Describe(int name) implements Action {
    }

    record ListAll() implements Action {
    }

    record Put(int name) implements Action {
    }

    @Provide
    Arbitrary<List<Action>> actions() {
        Arbitrary<Integer> name = Arbitraries.integers().between(0, 2);
        Arbitrary<Action> action = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(4, Combinators.combine(name, Arbitraries.of(ScalarType.class)).as(Create::new)),
                net.jqwik.api.Tuple.of(3, name.map(Delete::new)),
                net.jqwik.api.Tuple.of(3, name.map(Describe::new)),
                net.jqwik.api.Tuple.of(1, Arbitraries.just(new ListAll())),
                net.jqwik.api.Tuple.of(2, name.map(Put::new)));
        return action.list().ofMinSize(3).ofMaxSize(9);
    }

    static AttributeValue keyOf(ScalarType type, int n) {
        return switch (type) {
            case S -> AttributeValue.s("k" + n);
            case N -> AttributeValue.n(Integer.toString(-n));
            case B -> AttributeValue.b(new byte[] {(byte) (0x80 + n)});
        };
    }

    static ErrorReason reasonOf(Runnable call) {
        Throwable thrown = catchThrowable(call::run);
        assertThat(thrown).isInstanceOf(StorageException.class);
        return ((StorageException) thrown).reason();
    }

    @Property(tries = 8)
    void generatedLifecyclesMatchTheModel(@ForAll("actions") List<Action> actions) {
        String run = TestCassandra.random(6);
        List<String> names = List.of("m-" + run + "-a", "m-" + run + "-b", "m-" + run + "-c");
        Map<String, ScalarType> model = new TreeMap<>();
        Map<String, Integer> items = new TreeMap<>();
        for (Action action : actions) {
            if (action instanceof Create c) {
                String table = names.get(c.name());
                if (model.containsKey(table)) {
                    assertThat(reasonOf(() -> storage.tables().createTable(TestCassandra.hashOnly(ACCOUNT, table, c.type()))))
                            .as("%s: CreateTable of an existing name", action).isEqualTo(ErrorReason.RESOURCE_IN_USE);
                } else {
                    TableDescription d = storage.tables().createTable(TestCassandra.hashOnly(ACCOUNT, table, c.type()));
                    assertThat(d.status()).as("%s", action).isEqualTo(TableStatus.ACTIVE);
                    model.put(table, c.type());
                    items.put(table, 0);
                    assertThat(StoredData.allItems(storage, ACCOUNT, table)).as("%s: a new table is empty", action).isEmpty();
                }
            } else if (action instanceof Delete del) {
                String table = names.get(del.name());
                if (model.containsKey(table)) {
                    assertThat(storage.tables().deleteTable(ACCOUNT, table).status()).isEqualTo(TableStatus.DELETING);
                    model.remove(table);
                    items.remove(table);
                } else {
                    assertThat(reasonOf(() -> storage.tables().deleteTable(ACCOUNT, table)))
                            .as("%s: DeleteTable of a missing name", action).isEqualTo(ErrorReason.TABLE_NOT_FOUND);
                }
            } else if (action instanceof Describe desc) {
                String table = names.get(desc.name());
                if (model.containsKey(table)) {
                    TableDescription d = storage.tables().describeTable(ACCOUNT, table);
                    assertThat(d.status()).as("%s: never DELETING, never CREATING", action).isEqualTo(TableStatus.ACTIVE);
                    assertThat(d.definition("pk").orElseThrow().type()).isEqualTo(model.get(table));
                } else {
                    assertThat(reasonOf(() -> storage.tables().describeTable(ACCOUNT, table)))
                            .as("%s: a deleted or never created table", action).isEqualTo(ErrorReason.TABLE_NOT_FOUND);
                }
            } else if (action instanceof ListAll) {
                List<String> listed = new ArrayList<>(storage.tables().listTables(ACCOUNT));
                listed.removeIf(t -> !t.startsWith("m-" + run));
                assertThat(listed).as("%s: exactly the model's tables, in name order", action)
                        .containsExactlyElementsOf(model.keySet());
            } else if (action instanceof Put p) {
                String table = names.get(p.name());
                if (model.containsKey(table)) {
                    int n = items.merge(table, 1, Integer::sum);
                    Item item = TestCassandra.item("pk", keyOf(model.get(table), n), "n", AttributeValue.n(Integer.toString(n)));
                    storage.tables().putItem(ACCOUNT, table, item);
                    assertThat(storage.tables().getItem(ACCOUNT, table, RequestKey.of("pk", keyOf(model.get(table), n)))).contains(item);
                    assertThat(StoredData.allItems(storage, ACCOUNT, table)).hasSize(n);
                } else {
                    assertThat(reasonOf(() -> storage.tables().putItem(ACCOUNT, table,
                            TestCassandra.item("pk", AttributeValue.s("x")))))
                            .as("%s: a write to a missing table", action).isEqualTo(ErrorReason.TABLE_NOT_FOUND);
                }
            }
        }
        List<String> listed = new ArrayList<>(storage.tables().listTables(ACCOUNT));
        listed.removeIf(t -> !t.startsWith("m-" + run));
        assertThat(listed).containsExactlyElementsOf(model.keySet());
    }
}
