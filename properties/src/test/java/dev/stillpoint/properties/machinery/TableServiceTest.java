package dev.stillpoint.properties.machinery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.core.ItemWrites;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.request.ItemWrite;
import dev.stillpoint.domain.request.RequestKey;
import dev.stillpoint.domain.request.WriteRequest;
import dev.stillpoint.domain.table.ChangeLog;
import dev.stillpoint.domain.table.CreateGsiRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.Projection;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.core.TableService;
import dev.stillpoint.core.lifecycle.TableDeletion;
import dev.stillpoint.ports.out.TimeSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The core service alone, over an in-memory catalog and item store (a fake of the driven ports, no
 * database): DynamoDB's request rules run before storage is touched [R1, R2], the item rules run
 * against the definition the unit of work read [R3], and only what the rules answered reaches
 * storage. The adapters' own behaviour is the kit's business; this is what the core adds.
 */
class TableServiceTest {

    private final InMemoryTables storage = new InMemoryTables();
    private final List<String> created = Collections.synchronizedList(new ArrayList<>());
    private final FakeCatalog drops = new FakeCatalog();
    private final TableService service = new TableService(storage, new ItemWrites(storage), request -> {
        created.add(request.tableName());
        return request.describe("id", "arn", java.time.Instant.EPOCH);
    }, new TableDeletion(drops, TimeSource.SYSTEM, () -> { }, () -> Duration.ZERO));

    // R1: an invalid table name is a ValidationException on every operation that takes one, and
    // storage is never asked (no unit of work, no catalog read).
    @Test
    void r1_anInvalidNameIsRefusedBeforeStorageIsTouched() {
        String bad = "x!";
        RequestKey key = RequestKey.of("pk", new AttributeValue.S("a"));
        List<Consumer<String>> operations = List.of(
                name -> service.describeTable("acct", name),
                name -> service.putItem("acct", name, item("a")),
                name -> service.getItem("acct", name, key),
                name -> service.deleteItem("acct", name, key),
                name -> service.deleteTable("acct", name),
                name -> service.addGlobalSecondaryIndex("acct", name, gsiOn("g")),
                name -> service.updateChangeLog("acct", name, ChangeLog.OFF),
                name -> service.createTable(Descriptions.request("acct", name)));
        for (Consumer<String> operation : operations) {
            assertThatThrownBy(() -> operation.accept(bad))
                    .isInstanceOfSatisfying(StorageException.class, e -> {
                        assertThat(e.reason()).as("[R1] Validation, never ResourceNotFound").isEqualTo(ErrorReason.VALIDATION);
                        assertThat(e.getMessage()).as("[R6] names the value").contains(bad);
                    });
        }
        assertThat(storage.calls).as("[R1] storage untouched by refused requests").isEmpty();
        assertThat(created).isEmpty();
        assertThat(drops.calls).isEmpty();
    }

    // ListTables answers in name order on every backend (its pages go by ExclusiveStartTableName, so the
    // order is the name's); the core sorts, whatever order or collation a catalog answers in.
    @Test
    void listTablesAnswersInCodePointOrderWhateverTheCatalogsOrder() {
        List<String> names = List.of("b-table", "Zeta", "a.table", "A_table", "alpha", "a-table", "B.table", "0lder");
        names.forEach(name -> storage.tables.put(name, Descriptions.active("acct", name)));
        assertThat(service.listTables("acct"))
                .as("code point order: digits, then upper case, then lower case, '-' < '.' < '_'")
                .containsExactly("0lder", "A_table", "B.table", "Zeta", "a-table", "a.table", "alpha", "b-table");
    }

    // R2: the account id is checked before it reaches an ARN or a query.
    @Test
    void r2_anInvalidAccountIsRefusedBeforeStorageIsTouched() {
        assertThatThrownBy(() -> service.listTables("acct with space"))
                .isInstanceOfSatisfying(StorageException.class, e ->
                        assertThat(e.reason()).isEqualTo(ErrorReason.VALIDATION));
        assertThatThrownBy(() -> service.putItem("", "Orders", item("a")))
                .isInstanceOfSatisfying(StorageException.class, e ->
                        assertThat(e.reason()).isEqualTo(ErrorReason.VALIDATION));
        assertThat(storage.calls).isEmpty();
    }

    // R6: a missing item or key is refused naming the table, not a NullPointerException.
    @Test
    void r6_aMissingItemOrKeyIsAValidationNamingTheTable() {
        storage.tables.put("Orders", Descriptions.active("acct", "Orders"));
        assertThatThrownBy(() -> service.putItem("acct", "Orders", null))
                .isInstanceOfSatisfying(StorageException.class, e -> {
                    assertThat(e.reason()).isEqualTo(ErrorReason.VALIDATION);
                    assertThat(e.getMessage()).contains("Orders");
                });
        assertThatThrownBy(() -> service.getItem("acct", "Orders", null))
                .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.getMessage()).contains("Orders"));
        assertThatThrownBy(() -> service.deleteItem("acct", "Orders", null))
                .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.getMessage()).contains("Orders"));
        assertThat(storage.items).isEmpty();
        // Refused up front, as an invalid name is [R1]: no unit of work is opened for a request without its key.
        assertThat(storage.calls).as("[R1, R6] a request without its item or key is refused before storage is asked")
                .isEmpty();
    }

    // D10: DescribeTable of a table without a row is TableNotFound naming it.
    @Test
    void d10_describingAMissingTableIsTableNotFound() {
        assertThatThrownBy(() -> service.describeTable("acct", "Missing"))
                .isInstanceOfSatisfying(StorageException.class, e -> {
                    assertThat(e.reason()).isEqualTo(ErrorReason.TABLE_NOT_FOUND);
                    assertThat(e.getMessage()).contains("Missing");
                });
        storage.tables.put("Orders", Descriptions.active("acct", "Orders"));
        assertThat(service.describeTable("acct", "Orders").tableName()).isEqualTo("Orders");
        assertThat(service.listTables("acct")).containsExactly("Orders");
    }

    // R3: the item rules run against the definition the unit of work read: an item whose GSI key
    // attribute has the wrong type is refused naming the index, and nothing is written; a good item
    // is written with exactly the index entries the rules named.
    @Test
    void r3_itemRulesRunAgainstTheDefinitionTheUnitOfWorkRead() {
        storage.tables.put("Orders", withGsi(Descriptions.active("acct", "Orders")));
        Item wrongType = Item.of(Map.of("pk", new AttributeValue.S("a"), "g", new AttributeValue.N("1")));
        assertThatThrownBy(() -> service.putItem("acct", "Orders", wrongType))
                .isInstanceOfSatisfying(StorageException.class, e -> {
                    assertThat(e.reason()).isEqualTo(ErrorReason.VALIDATION);
                    assertThat(e.getMessage()).as("[R3] names the index and the attribute").contains("byG").contains("g");
                });
        assertThat(storage.items).as("[R3] nothing written for a refused item").isEmpty();

        Item good = Item.of(Map.of("pk", new AttributeValue.S("a"), "g", new AttributeValue.S("x")));
        service.putItem("acct", "Orders", good);
        ItemWrite written = storage.items.get("Orders/a");
        assertThat(written.indexKeys()).as("[R3] the GSI entry the rules named").containsOnlyKeys("byG");
        assertThat(service.getItem("acct", "Orders", RequestKey.of("pk", new AttributeValue.S("a")))).contains(written.item());
        service.deleteItem("acct", "Orders", RequestKey.of("pk", new AttributeValue.S("a")));
        assertThat(storage.items).isEmpty();
    }

    // I1: UpdateTable's change log switch runs the core's rules on the table as the catalog holds it; a
    // catalog without a log (the port's default) answers the setting the table has and refuses a change
    // UNSUPPORTED naming the table; a missing table is TableNotFound, a DELETING one in use.
    @Test
    void i1_theChangeLogSwitchRunsTheRulesOnTheStoredTable_aCatalogWithoutALogRefusesAChange() {
        storage.tables.put("Orders", Descriptions.active("acct", "Orders"));
        assertThat(service.updateChangeLog("acct", "Orders", ChangeLog.OFF).changeLog()).as("[I1] unchanged")
                .isEqualTo(ChangeLog.OFF);
        assertThatThrownBy(() -> service.updateChangeLog("acct", "Orders", ChangeLog.NEW_IMAGE))
                .isInstanceOfSatisfying(StorageException.class, e -> {
                    assertThat(e.reason()).isEqualTo(ErrorReason.UNSUPPORTED);
                    assertThat(e.getMessage()).contains("Orders");
                });
        assertThatThrownBy(() -> service.updateChangeLog("acct", "Orders", null))
                .isInstanceOfSatisfying(StorageException.class, e ->
                        assertThat(e.reason()).isEqualTo(ErrorReason.VALIDATION));
        assertThatThrownBy(() -> service.updateChangeLog("acct", "Missing", ChangeLog.OFF))
                .isInstanceOfSatisfying(StorageException.class, e -> {
                    assertThat(e.reason()).isEqualTo(ErrorReason.TABLE_NOT_FOUND);
                    assertThat(e.getMessage()).contains("Missing");
                });
        storage.tables.put("Old", Descriptions.active("acct", "Old").withStatus(TableStatus.DELETING));
        assertThatThrownBy(() -> service.updateChangeLog("acct", "Old", ChangeLog.OFF))
                .isInstanceOfSatisfying(StorageException.class, e ->
                        assertThat(e.reason()).isEqualTo(ErrorReason.RESOURCE_IN_USE));
        assertThat(service.describeTable("acct", "Orders").changeLog()).isEqualTo(ChangeLog.OFF);
    }

    // D4: items of a CREATING table are not found yet, of a DELETING one in use; nothing is written.
    @Test
    void d4_itemsOfATableNotActiveAreRefusedByState() {
        storage.tables.put("New", Descriptions.active("acct", "New").withStatus(TableStatus.CREATING));
        storage.tables.put("Old", Descriptions.active("acct", "Old").withStatus(TableStatus.DELETING));
        assertThatThrownBy(() -> service.putItem("acct", "New", item("a")))
                .isInstanceOfSatisfying(StorageException.class, e ->
                        assertThat(e.reason()).isEqualTo(ErrorReason.TABLE_NOT_FOUND));
        assertThatThrownBy(() -> service.getItem("acct", "Old", RequestKey.of("pk", new AttributeValue.S("a"))))
                .isInstanceOfSatisfying(StorageException.class, e ->
                        assertThat(e.reason()).isEqualTo(ErrorReason.RESOURCE_IN_USE));
        assertThat(storage.items).isEmpty();
    }

    // R2: UpdateTable adding a GSI checks the new key names before storage, then hands storage the
    // rules' new definition; the catalog records exactly what the rules answered.
    @Test
    void r2_addingAGsiChecksTheRequestThenRecordsTheRulesAnswer() {
        storage.tables.put("Orders", Descriptions.active("acct", "Orders"));
        assertThatThrownBy(() -> service.addGlobalSecondaryIndex("acct", "Orders", gsiOn("k".repeat(256))))
                .isInstanceOfSatisfying(StorageException.class, e ->
                        assertThat(e.reason()).isEqualTo(ErrorReason.VALIDATION));
        assertThat(storage.calls).isEmpty();
        TableDescription after = service.addGlobalSecondaryIndex("acct", "Orders", gsiOn("g"));
        assertThat(after.globalSecondaryIndexes()).extracting(GlobalSecondaryIndex::name).containsExactly("byG");
        assertThat(storage.tables.get("Orders")).isEqualTo(after);
    }

    // D4: CreateTable goes to the creation path only once checked.
    @Test
    void d4_createTableReachesTheCreatorOnceChecked() {
        assertThat(service.createTable(Descriptions.request("acct", "Fresh")).tableName()).isEqualTo("Fresh");
        assertThat(created).containsExactly("Fresh");
    }

    // R7: BatchWriteItem hands storage each table's checked changes in request order, and what storage
    // left unapplied comes back as the caller's own requests, by table.
    @Test
    void r7_batchWriteItemWritesEveryTablesChangesAndReturnsWhatWasNotApplied() {
        storage.tables.put("Orders", Descriptions.active("acct", "Orders"));
        storage.tables.put("Users", Descriptions.active("acct", "Users"));
        service.putItem("acct", "Users", item("gone"));
        WriteRequest last = new WriteRequest.Put(item("c"));
        Map<String, List<WriteRequest>> batch = new java.util.LinkedHashMap<>();
        batch.put("Orders", List.of(new WriteRequest.Put(item("a")), new WriteRequest.Put(item("b"))));
        batch.put("Users", List.of(new WriteRequest.Delete(RequestKey.of("pk", new AttributeValue.S("gone"))), last));
        assertThat(service.batchWriteItem("acct", batch).unprocessedItems()).as("[R7] everything applied").isEmpty();
        assertThat(storage.items).as("[R7] both tables' changes").containsOnlyKeys("Orders/a", "Orders/b", "Users/c");

        storage.failAfter = 1;
        assertThat(service.batchWriteItem("acct", Map.of("Users", List.of(new WriteRequest.Put(item("d")), last)))
                .unprocessedItems()).as("[R7] the change storage left unapplied, as the caller's request")
                .isEqualTo(Map.of("Users", List.of(last)));
        assertThat(storage.items).containsKey("Users/d");
    }

    private static Item item(String pk) {
        return Item.of(Map.of("pk", new AttributeValue.S(pk)));
    }

    private static CreateGsiRequest gsiOn(String attribute) {
        return new CreateGsiRequest(GlobalSecondaryIndex.creating("byG", KeySchema.hashOnly(attribute), Projection.all()),
                List.of(new AttributeDefinition(attribute, ScalarType.S)));
    }

    private static TableDescription withGsi(TableDescription table) {
        return table.applyCreateGsi(gsiOn("g"));
    }
}
