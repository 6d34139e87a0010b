package dev.stillpoint.properties.machinery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.core.ItemWrites;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.request.ItemChange;
import dev.stillpoint.domain.request.ItemRules;
import dev.stillpoint.domain.request.ItemWrite;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.out.CatalogStamp;
import dev.stillpoint.ports.out.ItemStorage;
import dev.stillpoint.ports.out.ItemUnit;
import dev.stillpoint.ports.out.StorageTable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The core's write sequence (issue 28) over a fake storage with catalog versions: the definition cache
 * checked by stamp, the optimistic path, the rules run once per write, the batch rule [R7].
 */
class ItemWritesTest {

    private static final String ACCOUNT = "acct";

    /** A storage whose catalog rows carry stamps; every step logged, the optimistic path scripted. */
    private static final class VersionedStorage implements ItemStorage {
        final Map<String, Long> versions = new LinkedHashMap<>();
        final Map<String, Item> items = new LinkedHashMap<>();
        final List<String> calls = Collections.synchronizedList(new ArrayList<>());
        boolean optimisticCommits = true;
        boolean atomic = true;
        int failAt = -1;

        void table(String name, long version) {
            versions.put(name, version);
        }

        private StorageTable loaded(String name) {
            TableDescription d = Descriptions.active(ACCOUNT, name);
            CatalogStamp stamp = new CatalogStamp("id-" + name, versions.get(name));
            return new StorageTable() {
                @Override
                public TableDescription description() {
                    return d;
                }

                @Override
                public Optional<CatalogStamp> stamp() {
                    return Optional.of(stamp);
                }
            };
        }

        private ItemUnit unit(boolean reads) {
            return new ItemUnit() {
                int changes;

                @Override
                public boolean atomic() {
                    return atomic;
                }

                @Override
                public List<Optional<CatalogStamp>> stamps(String accountId, List<String> tableNames) {
                    calls.add("stamps " + tableNames);
                    return tableNames.stream().map(n -> Optional.ofNullable(versions.get(n))
                            .map(v -> new CatalogStamp("id-" + n, v))).toList();
                }

                @Override
                public Optional<StorageTable> load(String accountId, String tableName) {
                    assertThat(reads).as("the optimistic path reads no definition").isTrue();
                    calls.add("load " + tableName);
                    return versions.containsKey(tableName) ? Optional.of(loaded(tableName)) : Optional.empty();
                }

                @Override
                public void upsert(StorageTable table, ItemWrite write) {
                    change(table, write.key(), write.item());
                }

                @Override
                public void delete(StorageTable table, Key key) {
                    change(table, key, null);
                }

                private void change(StorageTable table, Key key, Item item) {
                    if (changes++ == failAt) {
                        throw new StorageException(ErrorReason.TRANSIENT, "scripted failure");
                    }
                    String id = table.description().tableName() + "/" + ((AttributeValue.S) key.partition()).value();
                    calls.add((item == null ? "delete " : "upsert ") + id);
                    if (item == null) {
                        items.remove(id);
                    } else {
                        items.put(id, item);
                    }
                }
            };
        }

        @Override
        public <T> T inUnit(String doing, UnitWork<T> work) {
            calls.add("unit");
            return work.run(unit(true));
        }

        @Override
        public boolean onKnownDefinitions(String doing, List<StorageTable> tables, Consumer<ItemUnit> writes) {
            calls.add("optimistic");
            boolean current = tables.stream().allMatch(t -> t.stamp().orElseThrow().catalogVersion()
                    == versions.getOrDefault(t.description().tableName(), -1L));
            if (!optimisticCommits || !current) {
                return false;
            }
            writes.accept(unit(false));
            return true;
        }

        @Override
        public boolean versionedCatalog() {
            return true;
        }

        @Override
        public Optional<StorageTable> table(String accountId, String tableName) {
            calls.add("table " + tableName);
            return versions.containsKey(tableName) ? Optional.of(loaded(tableName)) : Optional.empty();
        }

        @Override
        public Optional<Item> read(StorageTable table, Key key) {
            return Optional.ofNullable(items.get(table.description().tableName() + "/"
                    + ((AttributeValue.S) key.partition()).value()));
        }
    }

    private final VersionedStorage storage = new VersionedStorage();
    private final ItemWrites writes = new ItemWrites(storage);

    private static Item item(String pk) {
        return Item.of(Map.of("pk", new AttributeValue.S(pk)));
    }

    private static Function<TableDescription, ItemWrite> putRules(Item item, AtomicInteger runs) {
        return table -> {
            runs.incrementAndGet();
            return ItemRules.forPut(table, item);
        };
    }

    @Test
    void aDefinitionIsLoadedOnceAndKeptWhileItsStampIsUnchanged() {
        storage.table("Orders", 1);
        storage.optimisticCommits = false;
        writes.put(ACCOUNT, "Orders", putRules(item("a"), new AtomicInteger()));
        writes.put(ACCOUNT, "Orders", putRules(item("b"), new AtomicInteger()));
        assertThat(storage.calls.stream().filter(c -> c.startsWith("load")))
                .as("[issue 28] one load while the stamp holds").containsExactly("load Orders");
        storage.table("Orders", 2);
        writes.put(ACCOUNT, "Orders", putRules(item("c"), new AtomicInteger()));
        assertThat(storage.calls.stream().filter(c -> c.startsWith("load")))
                .as("[issue 28] loaded again when the catalog version moved").containsExactly("load Orders", "load Orders");
        assertThat(storage.items).containsOnlyKeys("Orders/a", "Orders/b", "Orders/c");
    }

    @Test
    void aKnownDefinitionIsWrittenOnTheOptimisticPathWithoutAUnit() {
        storage.table("Orders", 1);
        writes.put(ACCOUNT, "Orders", putRules(item("a"), new AtomicInteger()));
        storage.calls.clear();
        AtomicInteger runs = new AtomicInteger();
        writes.put(ACCOUNT, "Orders", putRules(item("b"), runs));
        assertThat(storage.calls).as("[issue 28] one optimistic round, no unit, no load")
                .containsExactly("optimistic", "upsert Orders/b");
        assertThat(runs).as("the rules ran once").hasValue(1);
    }

    // Each table keeps its own definition: a write to a second table is never decided, nor written, under the
    // first table's definition kept from before, though both stamps are current on the optimistic path.
    @Test
    void eachTableKeepsItsOwnDefinition() {
        storage.table("Orders", 1);
        storage.table("Invoices", 1);
        writes.put(ACCOUNT, "Orders", putRules(item("a"), new AtomicInteger()));
        writes.put(ACCOUNT, "Invoices", putRules(item("b"), new AtomicInteger()));
        writes.put(ACCOUNT, "Orders", putRules(item("c"), new AtomicInteger()));
        writes.put(ACCOUNT, "Invoices", putRules(item("d"), new AtomicInteger()));
        assertThat(storage.items).as("each item in the table it was written to")
                .containsOnlyKeys("Orders/a", "Invoices/b", "Orders/c", "Invoices/d");
    }

    @Test
    void aStaleKnownDefinitionFallsBackToAUnitAndIsDecidedAgainUnderTheNewOne() {
        storage.table("Orders", 1);
        writes.put(ACCOUNT, "Orders", putRules(item("a"), new AtomicInteger()));
        storage.table("Orders", 2);
        storage.calls.clear();
        AtomicInteger runs = new AtomicInteger();
        writes.put(ACCOUNT, "Orders", putRules(item("b"), runs));
        assertThat(storage.calls).as("[issue 28] the optimistic round refused, then a unit under the new definition")
                .containsExactly("optimistic", "unit", "stamps [Orders]", "load Orders", "upsert Orders/b");
        assertThat(runs).as("decided under each definition once").hasValue(2);
    }

    @Test
    void aRefusalUnderAnUnchangedDefinitionStandsWithoutRunningTheRulesAgain() {
        storage.table("Orders", 1);
        writes.put(ACCOUNT, "Orders", putRules(item("a"), new AtomicInteger()));
        storage.calls.clear();
        AtomicInteger runs = new AtomicInteger();
        Item noKey = Item.of(Map.of("other", new AttributeValue.S("x")));
        assertThatThrownBy(() -> writes.put(ACCOUNT, "Orders", putRules(noKey, runs)))
                .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.reason()).isEqualTo(ErrorReason.VALIDATION));
        assertThat(runs).as("[issue 28] the rules ran once for a refused write").hasValue(1);
        assertThat(storage.calls).as("the refusal is confirmed under the current stamp, nothing written")
                .containsExactly("unit", "stamps [Orders]");
    }

    @Test
    void aTableWithoutACatalogRowIsNotFoundAndForgotten() {
        storage.table("Orders", 1);
        writes.put(ACCOUNT, "Orders", putRules(item("a"), new AtomicInteger()));
        storage.versions.remove("Orders");
        assertThatThrownBy(() -> writes.put(ACCOUNT, "Orders", putRules(item("b"), new AtomicInteger())))
                .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.reason()).isEqualTo(ErrorReason.TABLE_NOT_FOUND));
        storage.table("Orders", 1);
        storage.calls.clear();
        writes.put(ACCOUNT, "Orders", putRules(item("c"), new AtomicInteger()));
        assertThat(storage.calls).as("a table gone is forgotten: no optimistic round on its old definition")
                .containsExactly("unit", "stamps [Orders]", "load Orders", "upsert Orders/c");
    }

    @Test
    void r7_aBatchReadsEveryStampInNameOrderAndRefusesBeforeAnyWrite() {
        storage.table("Bbb", 1);
        storage.table("Aaa", 1);
        Map<String, Function<TableDescription, List<ItemChange>>> batch = new LinkedHashMap<>();
        batch.put("Bbb", t -> List.of(new ItemChange.Put(ItemRules.forPut(t, item("b")))));
        batch.put("Aaa", t -> List.of(new ItemChange.Put(ItemRules.forPut(t, Item.of(Map.of())))));
        assertThatThrownBy(() -> writes.write(ACCOUNT, batch)).isInstanceOf(StorageException.class);
        assertThat(storage.calls).as("[R7] stamps in name order, nothing written")
                .containsExactly("unit", "stamps [Aaa, Bbb]", "load Aaa", "load Bbb");
        assertThat(storage.items).isEmpty();
    }

    @Test
    void r7_aUnitThatIsNotAtomicHandsBackWhatAFailureLeftUnapplied() {
        storage.table("Aaa", 1);
        storage.atomic = false;
        storage.failAt = 1;
        Map<String, Function<TableDescription, List<ItemChange>>> batch = new LinkedHashMap<>();
        batch.put("Aaa", t -> List.of(new ItemChange.Put(ItemRules.forPut(t, item("1"))),
                new ItemChange.Put(ItemRules.forPut(t, item("2"))), new ItemChange.Put(ItemRules.forPut(t, item("3")))));
        Map<String, List<ItemChange>> left = writes.write(ACCOUNT, batch);
        assertThat(left.get("Aaa")).as("[R7] the failed change and every later one").extracting(c -> c.key().partition())
                .containsExactly(new AttributeValue.S("2"), new AttributeValue.S("3"));
        assertThat(storage.items).containsOnlyKeys("Aaa/1");
    }

    @Test
    void getReadsTheDefinitionThenTheItemUnderTheCheckedKey() {
        storage.table("Orders", 1);
        writes.put(ACCOUNT, "Orders", putRules(item("a"), new AtomicInteger()));
        assertThat(writes.get(ACCOUNT, "Orders", t -> Key.of(item("a"), t.keySchema()))).contains(item("a"));
        assertThatThrownBy(() -> writes.get(ACCOUNT, "Nope", t -> Key.of(item("a"), t.keySchema())))
                .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.reason()).isEqualTo(ErrorReason.TABLE_NOT_FOUND));
    }

    @Test
    void e1_getRefusesAnItemStoredUnderAKeyItDoesNotCarry() {
        storage.table("Orders", 1);
        storage.items.put("Orders/a", item("b"));
        assertThatThrownBy(() -> writes.get(ACCOUNT, "Orders", t -> Key.of(item("a"), t.keySchema())))
                .as("[E1] an item of another key is never handed back")
                .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.reason()).isEqualTo(ErrorReason.INTERNAL))
                .hasMessageContaining("key attribute 'pk' is S 'b'");
    }

    @Test
    void deleteRemovesUnderTheCheckedKey() {
        storage.table("Orders", 1);
        storage.optimisticCommits = false;
        writes.put(ACCOUNT, "Orders", putRules(item("a"), new AtomicInteger()));
        writes.delete(ACCOUNT, "Orders", t -> Key.of(item("a"), t.keySchema()));
        assertThat(storage.items).isEmpty();
    }
}
