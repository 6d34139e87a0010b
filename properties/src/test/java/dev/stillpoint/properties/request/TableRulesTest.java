package dev.stillpoint.properties.request;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.request.TableRules;
import dev.stillpoint.domain.table.ChangeLog;
import dev.stillpoint.domain.table.CreateGsiRequest;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.Projection;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import java.time.Instant;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * TableRules, pure: a CreateTable or an UpdateTable adding a GSI is checked for what the request's own
 * construction leaves out, the account id and every key attribute name [R2, R4], and the refusal says
 * whose key holds the bad name [R6]; item operations are admitted on ACTIVE tables only [D4].
 */
class TableRulesTest {

    private static final String ACCOUNT = "000000000000";
    /** 256 bytes: one more than a key attribute name may have [R2]; valid for the request's own construction. */
    private static final String LONG = "k".repeat(256);
    private static final String LONE = "k\ud800";

    private static StorageException refusal(Runnable call) {
        return Refusals.thrownBy(call);
    }

    /** A table keyed (pk, sk) with a GSI (gpk, gsk) and an LSI on lsk, with {@code bad} replacing one of those names. */
    private static CreateTableRequest table(String account, Function<String, String> names) {
        return CreateTableRequest.builder(account, "orders")
                .partitionKey(names.apply("pk"), ScalarType.S).sortKey(names.apply("sk"), ScalarType.N)
                .globalIndex("by_g", names.apply("gpk"), ScalarType.S, names.apply("gsk"), ScalarType.N, Projection.all())
                .localIndex("by_l", names.apply("lsk"), ScalarType.B, Projection.keysOnly())
                .build();
    }

    @Test
    void r2_aValidCreateTableIsReturnedUnchanged() {
        CreateTableRequest request = table(ACCOUNT, name -> name);
        assertThat(TableRules.requireCreatable(request)).isSameAs(request);
    }

    @Test
    void r2_aBadKeyNameIsRefusedNamingWhoseKeyItIs_forEveryKeyAttributeOfTheTableAndItsIndexes() {
        String[][] cases = {
            {"pk", "the key of table 'orders'"}, {"sk", "the key of table 'orders'"},
            {"gpk", "the key of index 'by_g'"}, {"gsk", "the key of index 'by_g'"},
            {"lsk", "the key of index 'by_l'"},
        };
        for (String[] c : cases) {
            for (String bad : List.of(LONG, LONE)) {
                CreateTableRequest request = table(ACCOUNT, name -> name.equals(c[0]) ? bad : name);
                StorageException e = refusal(() -> TableRules.requireCreatable(request));
                assertThat(e.reason()).isEqualTo(ErrorReason.VALIDATION);
                assertThat(e.getMessage()).as("[R2, R6] %s named as %s", c[0], c[1])
                        .startsWith("attribute name '" + bad.substring(0, 1)).contains(" of " + c[1] + " ");
            }
        }
    }

    @Test
    void r2_theAccountIdAndANullRequestAreRefused() {
        assertThat(refusal(() -> TableRules.requireCreatable(table("a:b", name -> name))).getMessage())
                .startsWith("account id 'a:b'");
        assertThat(refusal(() -> TableRules.requireCreatable(table("", name -> name))).getMessage())
                .isEqualTo("account id must not be empty, got an empty string");
        assertThat(refusal(() -> TableRules.requireCreatable((CreateTableRequest) null)).getMessage())
                .isEqualTo("CreateTable request is required, got null");
        assertThat(refusal(() -> TableRules.requireCreatable((CreateGsiRequest) null)).getMessage())
                .isEqualTo("UpdateTable request is required, got null");
    }

    @Test
    void r2_anUpdateTableAddingAGsiIsCheckedForItsKeyNamesAndDefinitions() {
        CreateGsiRequest valid = CreateGsiRequest.of(
                GlobalSecondaryIndex.creating("by_g", KeySchema.composite("pk", "gsk"), Projection.all()),
                new AttributeDefinition("gsk", ScalarType.N), new AttributeDefinition("pk", ScalarType.S));
        assertThat(TableRules.requireCreatable(valid)).isSameAs(valid);
        for (String bad : List.of(LONG, LONE)) {
            // The key's name is checked before the definitions are: the refusal names the key.
            CreateGsiRequest keyOnly = CreateGsiRequest.of(
                    GlobalSecondaryIndex.creating("by_g", KeySchema.composite("pk", bad), Projection.all()));
            assertThat(refusal(() -> TableRules.requireCreatable(keyOnly)).getMessage())
                    .as("[R2, R6] the GSI's sort key").contains(" of the key of index 'by_g' ");
            CreateGsiRequest defined = CreateGsiRequest.of(
                    GlobalSecondaryIndex.creating("by_g", KeySchema.hashOnly("pk"), Projection.all()),
                    new AttributeDefinition(bad, ScalarType.S));
            assertThat(refusal(() -> TableRules.requireCreatable(defined)).getMessage())
                    .as("[R2, R6] a new definition").contains(" of an attribute definition of index 'by_g' ");
        }
    }

    // UpdateTable's AttributeDefinitions "must include the key element(s) of the new index" (API reference,
    // UpdateTable: https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateTable.html), and
    // DynamoDB refuses one that omits a key attribute the table already defines ("Some index key attributes
    // are not defined in AttributeDefinitions", observed in eu-west-2: nubo-db/dynoxide issue 144). Here the
    // table's own partition key, left out; with it named the request passes.
    @Test
    void r2_anUpdateTableAddingAGsiNamesEveryKeyAttributeOfTheIndexInItsDefinitions() {
        GlobalSecondaryIndex onTableKey = GlobalSecondaryIndex.creating("by_g", KeySchema.composite("pk", "gsk"),
                Projection.all());
        StorageException omitted = refusal(() -> TableRules.requireCreatable(CreateGsiRequest.of(onTableKey,
                new AttributeDefinition("gsk", ScalarType.N))));
        assertThat(omitted.reason()).isEqualTo(ErrorReason.VALIDATION);
        assertThat(omitted.getMessage()).as("[R6] the attribute, the index and the definitions given")
                .contains("key attribute 'pk' of global secondary index 'by_g' is not among the request's attribute"
                        + " definitions [gsk]");
        StorageException none = refusal(() -> TableRules.requireCreatable(CreateGsiRequest.of(onTableKey)));
        assertThat(none.getMessage()).contains("key attribute 'pk'").contains("definitions []");
        CreateGsiRequest named = CreateGsiRequest.of(onTableKey, new AttributeDefinition("pk", ScalarType.S),
                new AttributeDefinition("gsk", ScalarType.N));
        assertThat(TableRules.requireCreatable(named)).isSameAs(named);
    }

    @Test
    void d4_itemsAreAvailableOnAnActiveTableOnly_creatingIsNotFound_deletingIsInUse() {
        TableDescription created = table(ACCOUNT, name -> name).describe("id", "arn:orders", Instant.parse("2026-01-01T00:00:00Z"));
        TableDescription active = created.withStatus(TableStatus.ACTIVE);
        assertThat(TableRules.requireItemsAvailable(active)).isSameAs(active);
        assertThat(refusal(() -> TableRules.requireItemsAvailable(created.withStatus(TableStatus.CREATING))).reason())
                .isEqualTo(ErrorReason.TABLE_NOT_FOUND);
        StorageException deleting = refusal(() -> TableRules.requireItemsAvailable(created.withStatus(TableStatus.DELETING)));
        assertThat(deleting.reason()).isEqualTo(ErrorReason.RESOURCE_IN_USE);
        assertThat(deleting.getMessage()).isEqualTo("table 'orders' is DELETING; its items can be read and written once it is ACTIVE");
    }

    @Test
    void i1_aChangeLogSwitchIsOffOnOrOnOff_neverAViewChangeWhileOn_andOnlyOnAnActiveTable() {
        TableDescription active = table(ACCOUNT, name -> name).describe("id", "arn:orders", Instant.parse("2026-01-01T00:00:00Z"))
                .withStatus(TableStatus.ACTIVE);
        TableDescription logged = active.withChangeLog(ChangeLog.NEW_AND_OLD_IMAGES);
        assertThat(TableRules.requireChangeLogSwitch(active, ChangeLog.NEW_IMAGE)).as("[I1] on").isEqualTo(ChangeLog.NEW_IMAGE);
        assertThat(TableRules.requireChangeLogSwitch(logged, ChangeLog.OFF)).as("[I1] off").isEqualTo(ChangeLog.OFF);
        assertThat(TableRules.requireChangeLogSwitch(logged, ChangeLog.NEW_AND_OLD_IMAGES)).as("[I1] unchanged")
                .isEqualTo(ChangeLog.NEW_AND_OLD_IMAGES);
        StorageException viewChange = refusal(() -> TableRules.requireChangeLogSwitch(logged, ChangeLog.NEW_IMAGE));
        assertThat(viewChange.reason()).isEqualTo(ErrorReason.VALIDATION);
        assertThat(viewChange.getMessage()).as("[I1, R6] names the table and both views")
                .contains("'orders'").contains("NEW_AND_OLD_IMAGES").contains("cannot become NEW_IMAGE");
        StorageException none = refusal(() -> TableRules.requireChangeLogSwitch(active, null));
        assertThat(none.reason()).isEqualTo(ErrorReason.VALIDATION);
        assertThat(none.getMessage()).contains("'orders'").contains("got null");
        assertThat(refusal(() -> TableRules.requireChangeLogSwitch(active.withStatus(TableStatus.DELETING), ChangeLog.NEW_IMAGE))
                .reason()).as("[D4] a DELETING table keeps its setting").isEqualTo(ErrorReason.RESOURCE_IN_USE);
        assertThat(refusal(() -> TableRules.requireChangeLogSwitch(active.withStatus(TableStatus.CREATING), ChangeLog.OFF))
                .reason()).as("[D4] a CREATING table").isEqualTo(ErrorReason.TABLE_NOT_FOUND);
    }
}
