package dev.stillpoint.properties.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateGsiRequest;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.IndexStatus;
import dev.stillpoint.domain.table.LocalSecondaryIndex;
import dev.stillpoint.domain.table.Projection;
import dev.stillpoint.domain.table.ProjectionType;
import dev.stillpoint.domain.table.RestoreSummary;
import dev.stillpoint.domain.table.StreamSpecification;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.domain.table.ThroughputModeSummary;
import dev.stillpoint.domain.table.VectorIndex;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/** Worked examples of the table descriptions and requests; the general rules are in the *Properties classes. */
class TableDescriptionTest {
    private static final AttributeDefinition PK = new AttributeDefinition("pk", ScalarType.S);
    private static final AttributeDefinition SK = new AttributeDefinition("sk", ScalarType.N);
    private static final AttributeDefinition EMAIL = new AttributeDefinition("email", ScalarType.S);
    private static final AttributeDefinition CREATED_AT = new AttributeDefinition("createdAt", ScalarType.N);

    private static final GlobalSecondaryIndex BY_EMAIL = new GlobalSecondaryIndex("by_email",
            KeySchema.hashOnly("email"), Projection.all(), IndexStatus.ACTIVE, false, 10, 1000);
    private static final GlobalSecondaryIndex BY_EMAIL_AND_DATE = new GlobalSecondaryIndex("by_email_date",
            KeySchema.composite("email", "createdAt"), Projection.keysOnly(), IndexStatus.DELETING, false, 10, 1000);
    private static final LocalSecondaryIndex BY_DATE = new LocalSecondaryIndex("by_date",
            KeySchema.composite("pk", "createdAt"), Projection.include(List.of("note")), 4, 400);

    private static CreateTableRequest request() {
        return new CreateTableRequest("123456789012", "users", KeySchema.composite("pk", "sk"),
                List.of(PK, SK, EMAIL, CREATED_AT), List.of(BY_EMAIL, BY_EMAIL_AND_DATE), List.of(BY_DATE),
                Optional.of(StreamSpecification.enabled("NEW_IMAGE")));
    }

    private static TableDescription active() {
        return request().describe("tbl-1", "arn:aws:dynamodb:local:123456789012:table/users", TableArbitraries.CREATED)
                .withStatus(TableStatus.ACTIVE);
    }

    private static void assertRefused(ThrowingCallable call, ErrorReason reason, String named) {
        assertThatThrownBy(call)
                .isInstanceOf(StorageException.class)
                .satisfies(e -> assertThat(((StorageException) e).reason()).isEqualTo(reason))
                .hasMessageContaining(named);
    }

    @Test
    void d9_dropDeletingIndexes_dropsTheDeletingGsiAndTheDefinitionOnlyItUsed() {
        VectorIndex building = new VectorIndex("embedding_idx", "embedding", 768, "COSINE", IndexStatus.CREATING);
        VectorIndex going = new VectorIndex("old_embedding", "embedding", 384, "COSINE", IndexStatus.DELETING);
        TableDescription d = active().withIndexStatus("by_email", IndexStatus.CREATING);
        d = new TableDescription(d.accountId(), d.tableName(), d.tableId(), d.tableArn(), d.status(), d.creationTime(),
                d.keySchema(), d.attributeDefinitions(), d.globalSecondaryIndexes(), d.localSecondaryIndexes(),
                List.of(building, going), d.streamSpecification(), d.timeToLive(), d.restoreSummary(),
                d.throughputModeSummary(), d.itemCount(), d.tableSizeBytes());

        TableDescription dropped = d.dropDeletingIndexes();

        assertThat(dropped.globalSecondaryIndexes()).extracting(GlobalSecondaryIndex::name, GlobalSecondaryIndex::status)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("by_email", IndexStatus.CREATING));
        assertThat(dropped.vectorIndexes()).containsExactly(building);
        assertThat(dropped.localSecondaryIndexes()).containsExactly(BY_DATE);
        // createdAt stays: the LSI uses it. email stays: by_email uses it.
        assertThat(dropped.attributeDefinitions()).containsExactly(PK, SK, EMAIL, CREATED_AT);
    }

    @Test
    void d9_withoutGsisMissingRelations_dropsADefinitionOnlyTheMissingGsiUsed() {
        TableDescription d = new CreateTableRequest("1", "users", KeySchema.hashOnly("pk"),
                List.of(PK, EMAIL, CREATED_AT), List.of(BY_EMAIL, new GlobalSecondaryIndex("by_date",
                        KeySchema.composite("email", "createdAt"), Projection.all(), IndexStatus.ACTIVE, false, 0, 0)),
                List.of(), Optional.empty()).describe("t", "arn", TableArbitraries.CREATED);

        TableDescription pruned = d.withoutGsisMissingRelations(Set.of("by_email"));

        assertThat(pruned.globalSecondaryIndexes()).extracting(GlobalSecondaryIndex::name).containsExactly("by_email");
        assertThat(pruned.attributeDefinitions()).containsExactly(PK, EMAIL);
        assertThat(d.withoutGsisMissingRelations(Set.of()).attributeDefinitions()).containsExactly(PK);
    }

    @Test
    void s2_snapshotView_keepsTheRestoreSummaryAndClearsTheThroughputSummary() {
        RestoreSummary restore = new RestoreSummary(Optional.of("arn:backup"), Optional.empty(),
                TableArbitraries.CREATED, false);
        TableDescription d = active();
        d = new TableDescription(d.accountId(), d.tableName(), d.tableId(), d.tableArn(), d.status(), d.creationTime(),
                d.keySchema(), d.attributeDefinitions(), d.globalSecondaryIndexes(), d.localSecondaryIndexes(),
                d.vectorIndexes(), d.streamSpecification(), d.timeToLive(), Optional.of(restore),
                Optional.of(new ThroughputModeSummary("PROVISIONED", TableArbitraries.CREATED)), 42, 4200);

        TableDescription view = d.snapshotView();

        assertThat(view.restoreSummary()).contains(restore);
        assertThat(view.throughputModeSummary()).isEmpty();
        assertThat(view.itemCount()).isZero();
        assertThat(view.tableSizeBytes()).isZero();
        assertThat(view.gsi("by_email")).hasValueSatisfying(g -> assertThat(g.itemCount()).isZero());
        assertThat(view.localSecondaryIndexes().get(0).sizeBytes()).isZero();
    }

    @Test
    void d10_applyCreateGsi_addsTheIndexCreatingAndBackfilling_withMergedDefinitions() {
        TableDescription d = new CreateTableRequest("1", "users", KeySchema.hashOnly("pk"), List.of(PK), List.of(),
                List.of(), Optional.empty()).describe("t", "arn", TableArbitraries.CREATED).withStatus(TableStatus.ACTIVE);
        GlobalSecondaryIndex asked = new GlobalSecondaryIndex("by_email", KeySchema.composite("email", "pk"),
                Projection.all(), IndexStatus.ACTIVE, false, 99, 99);

        TableDescription updated = d.applyCreateGsi(CreateGsiRequest.of(asked, EMAIL, PK));

        assertThat(updated.gsi("by_email")).hasValue(GlobalSecondaryIndex.creating("by_email",
                KeySchema.composite("email", "pk"), Projection.all()));
        assertThat(updated.attributeDefinitions()).containsExactly(PK, EMAIL);
        assertThat(updated.requireKeyAttributesDefined()).isSameAs(updated);
    }

    // UpdateTable's definitions are a delta, as DynamoDB takes them (observed in eu-west-2, recorded in
    // nubo-db/dynoxide issues 129 and 131, and paritysuite/dynamodb-conformance issue 79): a redeclared attribute
    // keeps the table's type, even where the request gives another, and a definition no key uses is dropped;
    // neither is an error. (Both were refused here before.)
    @Test
    void d10_applyCreateGsi_aRedeclaredAttributeKeepsTheTablesType_andAnUnusedDefinitionIsDropped() {
        TableDescription table = active();
        TableDescription bySk = table.applyCreateGsi(CreateGsiRequest.of(GlobalSecondaryIndex.creating("by_sk",
                KeySchema.hashOnly("sk"), Projection.all()), new AttributeDefinition("sk", ScalarType.S)));
        assertThat(bySk.attributeDefinitions()).as("sk keeps the table's type").isEqualTo(table.attributeDefinitions());
        assertThat(bySk.gsi("by_sk")).isPresent();

        TableDescription byCity = table.applyCreateGsi(CreateGsiRequest.of(GlobalSecondaryIndex.creating("by_city",
                KeySchema.hashOnly("city"), Projection.all()), new AttributeDefinition("city", ScalarType.S),
                new AttributeDefinition("zip", ScalarType.N)));
        assertThat(byCity.attributeDefinitions()).as("city added after the table's, zip dropped")
                .containsExactlyElementsOf(java.util.stream.Stream.concat(table.attributeDefinitions().stream(),
                        java.util.stream.Stream.of(new AttributeDefinition("city", ScalarType.S))).toList());
    }

    @Test
    void d10_applyCreateGsi_refusesAnUndefinedKeyAttribute_andATakenName() {
        assertRefused(() -> active().applyCreateGsi(CreateGsiRequest.of(GlobalSecondaryIndex.creating("by_city",
                KeySchema.hashOnly("city"), Projection.all()))), ErrorReason.VALIDATION, "'city'");
        assertRefused(() -> active().applyCreateGsi(CreateGsiRequest.of(GlobalSecondaryIndex.creating("by_date",
                KeySchema.hashOnly("email"), Projection.all()))), ErrorReason.VALIDATION, "'by_date'");
    }

    @Test
    void d4_applyCreateGsi_onATableNotActive_isResourceInUse() {
        TableDescription creating = active().withStatus(TableStatus.CREATING);
        assertRefused(() -> creating.applyCreateGsi(CreateGsiRequest.of(GlobalSecondaryIndex.creating("by_sk",
                KeySchema.hashOnly("sk"), Projection.all()))), ErrorReason.RESOURCE_IN_USE, "'users'");
    }

    @Test
    void d10_withGlobalSecondaryIndex_refusesTheTwentyFirst() {
        TableDescription d = active();
        for (int i = d.globalSecondaryIndexes().size(); i < TableDescription.MAX_GLOBAL_SECONDARY_INDEXES; i++) {
            d = d.withGlobalSecondaryIndex(GlobalSecondaryIndex.creating("extra" + i, KeySchema.hashOnly("email"),
                    Projection.all()));
        }
        TableDescription full = d;
        assertThat(full.globalSecondaryIndexes()).hasSize(20);
        assertRefused(() -> full.withGlobalSecondaryIndex(GlobalSecondaryIndex.creating("one_more",
                KeySchema.hashOnly("email"), Projection.all())), ErrorReason.VALIDATION, "21");
        assertRefused(() -> full.withGlobalSecondaryIndex(GlobalSecondaryIndex.creating("by_date",
                KeySchema.hashOnly("email"), Projection.all())), ErrorReason.VALIDATION, "'by_date'");
    }

    @Test
    void d4_withIndexStatus_movesOneIndex_endsBackfilling_andRefusesLocalOrUnknownIndexes() {
        TableDescription d = active().applyCreateGsi(CreateGsiRequest.of(GlobalSecondaryIndex.creating("by_sk",
                KeySchema.hashOnly("sk"), Projection.all())));
        assertThat(d.gsi("by_sk")).hasValueSatisfying(g -> assertThat(g.backfilling()).isTrue());

        TableDescription built = d.withIndexStatus("by_sk", IndexStatus.ACTIVE);

        assertThat(built.gsi("by_sk")).hasValueSatisfying(g -> {
            assertThat(g.status()).isEqualTo(IndexStatus.ACTIVE);
            assertThat(g.backfilling()).isFalse();
        });
        assertThat(built.gsi("by_email_date")).isEqualTo(d.gsi("by_email_date"));
        assertRefused(() -> d.withIndexStatus("by_date", IndexStatus.DELETING), ErrorReason.VALIDATION, "'by_date'");
        assertRefused(() -> d.withIndexStatus("nope", IndexStatus.ACTIVE), ErrorReason.VALIDATION, "'nope'");
    }

    // [D1, D10] what CreateTable refuses, the check of a catalog description refuses too: a local index on a
    // table without a sort key or with another partition key, and more indexes than the limits allow.
    @Test
    void d10_requireKeyAttributesDefined_refusesBadLocalIndexesAndTooManyIndexes() {
        TableDescription d = active();
        TableDescription hashOnlyWithLsi = withIndexes(new TableDescription(d.accountId(), d.tableName(), d.tableId(),
                d.tableArn(), d.status(), d.creationTime(), KeySchema.hashOnly("pk"), d.attributeDefinitions(), List.of(),
                List.of(), List.of(), d.streamSpecification(), d.timeToLive(), d.restoreSummary(),
                d.throughputModeSummary(), 0, 0), List.of(), List.of(BY_DATE));
        assertRefused(hashOnlyWithLsi::requireKeyAttributesDefined, ErrorReason.VALIDATION, "'by_date'");

        LocalSecondaryIndex otherPartition = LocalSecondaryIndex.of("by_email_lsi",
                KeySchema.composite("email", "createdAt"), Projection.all());
        assertRefused(withIndexes(d, d.globalSecondaryIndexes(), List.of(otherPartition))::requireKeyAttributesDefined,
                ErrorReason.VALIDATION, "'by_email_lsi'");
        LocalSecondaryIndex noSort = LocalSecondaryIndex.of("by_pk_lsi", KeySchema.hashOnly("pk"), Projection.all());
        assertRefused(withIndexes(d, d.globalSecondaryIndexes(), List.of(noSort))::requireKeyAttributesDefined,
                ErrorReason.VALIDATION, "'by_pk_lsi'");

        List<GlobalSecondaryIndex> twentyOne = IntStream.range(0, 21).mapToObj(i -> GlobalSecondaryIndex.creating(
                "gsi" + i, KeySchema.hashOnly("email"), Projection.all())).toList();
        assertRefused(withIndexes(d, twentyOne, List.of())::requireKeyAttributesDefined, ErrorReason.VALIDATION,
                "limit of 20");
        TableDescription twenty = withIndexes(d, twentyOne.subList(0, 20), List.of());
        assertThat(twenty.requireKeyAttributesDefined()).isSameAs(twenty);

        List<LocalSecondaryIndex> six = IntStream.range(0, 6).mapToObj(i -> LocalSecondaryIndex.of("lsi" + i,
                KeySchema.composite("pk", "createdAt"), Projection.keysOnly())).toList();
        assertRefused(withIndexes(d, List.of(), six)::requireKeyAttributesDefined, ErrorReason.VALIDATION, "limit of 5");
        TableDescription five = withIndexes(d, List.of(), six.subList(0, 5));
        assertThat(five.requireKeyAttributesDefined()).isSameAs(five);
    }

    // [D4, D9] a vector index moves to a new status alone; a local index has no status of its own, and
    // an unknown name is refused as unknown.
    @Test
    void d4_withIndexStatus_movesAVectorIndex_andExplainsLocalAndUnknownNames() {
        VectorIndex first = new VectorIndex("embedding_idx", "embedding", 768, "COSINE", IndexStatus.CREATING);
        VectorIndex second = new VectorIndex("other_idx", "embedding", 384, "COSINE", IndexStatus.CREATING);
        TableDescription d = active();
        d = new TableDescription(d.accountId(), d.tableName(), d.tableId(), d.tableArn(), d.status(), d.creationTime(),
                d.keySchema(), d.attributeDefinitions(), d.globalSecondaryIndexes(), d.localSecondaryIndexes(),
                List.of(first, second), d.streamSpecification(), d.timeToLive(), d.restoreSummary(),
                d.throughputModeSummary(), d.itemCount(), d.tableSizeBytes());

        TableDescription built = d.withIndexStatus("embedding_idx", IndexStatus.ACTIVE);

        assertThat(built.vectorIndexes()).containsExactly(first.withStatus(IndexStatus.ACTIVE), second);
        assertThat(built.vectorIndexes().get(0).status()).isEqualTo(IndexStatus.ACTIVE);
        assertThat(built.globalSecondaryIndexes()).isEqualTo(d.globalSecondaryIndexes());
        TableDescription finalD = d;
        assertRefused(() -> finalD.withIndexStatus("by_date", IndexStatus.ACTIVE), ErrorReason.VALIDATION,
                "shares the table's status");
        assertRefused(() -> finalD.withIndexStatus("nope", IndexStatus.ACTIVE), ErrorReason.VALIDATION,
                "no index named 'nope'");
    }

    // [D1] a description finds the definition of an attribute, if it has one.
    @Test
    void d1_definition_findsAnAttributesDefinition() {
        assertThat(active().definition("email")).contains(EMAIL);
        assertThat(active().definition("createdAt")).contains(CREATED_AT);
        assertThat(active().definition("note")).isEmpty();
    }

    // [D1, D10] a refusal for an undefined key attribute says whose key it is: the table's or which index's.
    @Test
    void d10_undefinedKeyAttributeRefusal_namesWhoseKeyItIs() {
        TableDescription d = active();
        assertRefused(() -> withDefinitions(d, List.of(PK, EMAIL, CREATED_AT)).requireKeyAttributesDefined(),
                ErrorReason.VALIDATION, "key attribute 'sk' of table 'users' has no attribute definition");
        assertRefused(() -> withDefinitions(d, List.of(PK, SK, CREATED_AT)).requireKeyAttributesDefined(),
                ErrorReason.VALIDATION, "key attribute 'email' of global secondary index 'by_email' has no");
        TableDescription noGsis = withIndexes(d, List.of(), d.localSecondaryIndexes());
        assertRefused(() -> withDefinitions(noGsis, List.of(PK, SK, EMAIL)).requireKeyAttributesDefined(),
                ErrorReason.VALIDATION, "key attribute 'createdAt' of local secondary index 'by_date' has no");
    }

    // [D4] a global index backfills only while CREATING: a move keeps backfilling only into CREATING,
    // and never starts it.
    @Test
    void d4_gsiBackfillsOnlyWhileCreating() {
        GlobalSecondaryIndex backfilling = GlobalSecondaryIndex.creating("by_email", KeySchema.hashOnly("email"),
                Projection.all());
        assertThat(backfilling.withStatus(IndexStatus.CREATING).backfilling()).isTrue();
        assertThat(backfilling.withStatus(IndexStatus.ACTIVE).backfilling()).isFalse();
        assertThat(backfilling.withStatus(IndexStatus.DELETING).backfilling()).isFalse();
        assertThat(BY_EMAIL.withStatus(IndexStatus.CREATING).backfilling()).isFalse();
        assertThat(BY_EMAIL.withStatus(IndexStatus.DELETING)).isEqualTo(new GlobalSecondaryIndex("by_email",
                KeySchema.hashOnly("email"), Projection.all(), IndexStatus.DELETING, false, 10, 1000));
    }

    // [D10] a disabled stream has no view type; an enabled one has one of DynamoDB's four.
    @Test
    void d10_streamSpecifications() {
        assertThat(StreamSpecification.disabled()).isEqualTo(new StreamSpecification(false, Optional.empty()));
        for (String viewType : List.of("KEYS_ONLY", "NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES")) {
            assertThat(StreamSpecification.enabled(viewType).viewType()).contains(viewType);
        }
    }

    private static TableDescription withDefinitions(TableDescription d, List<AttributeDefinition> definitions) {
        return new TableDescription(d.accountId(), d.tableName(), d.tableId(), d.tableArn(), d.status(), d.creationTime(),
                d.keySchema(), definitions, d.globalSecondaryIndexes(), d.localSecondaryIndexes(), d.vectorIndexes(),
                d.streamSpecification(), d.timeToLive(), d.restoreSummary(), d.throughputModeSummary(), d.itemCount(),
                d.tableSizeBytes());
    }

    private static TableDescription withIndexes(TableDescription d, List<GlobalSecondaryIndex> gsis,
            List<LocalSecondaryIndex> lsis) {
        return new TableDescription(d.accountId(), d.tableName(), d.tableId(), d.tableArn(), d.status(), d.creationTime(),
                d.keySchema(), d.attributeDefinitions(), gsis, lsis, d.vectorIndexes(), d.streamSpecification(),
                d.timeToLive(), d.restoreSummary(), d.throughputModeSummary(), d.itemCount(), d.tableSizeBytes());
    }

    @Test
    void d1_aDamagedCatalogDescriptionStillExists_butIsNotAValidNewTable() {
        TableDescription d = active();
        TableDescription damaged = new TableDescription(d.accountId(), d.tableName(), d.tableId(), d.tableArn(),
                d.status(), d.creationTime(), d.keySchema(), List.of(PK, EMAIL, CREATED_AT), d.globalSecondaryIndexes(),
                d.localSecondaryIndexes(), d.vectorIndexes(), d.streamSpecification(), d.timeToLive(),
                d.restoreSummary(), d.throughputModeSummary(), 0, 0);

        assertRefused(damaged::requireKeyAttributesDefined, ErrorReason.VALIDATION, "'sk'");
    }

    @Test
    void d10_createTable_refusesAnLsiWithAnotherPartitionKey_sixLsis_andADuplicateDefinition() {
        CreateTableRequest r = request();
        LocalSecondaryIndex otherPartition = LocalSecondaryIndex.of("by_email_lsi",
                KeySchema.composite("email", "createdAt"), Projection.all());
        assertRefused(() -> new CreateTableRequest(r.accountId(), r.tableName(), r.keySchema(), r.attributeDefinitions(),
                r.gsis(), List.of(otherPartition), r.stream()), ErrorReason.VALIDATION, "'by_email_lsi'");

        List<LocalSecondaryIndex> six = IntStream.range(0, 6).mapToObj(i -> LocalSecondaryIndex.of("lsi" + i,
                KeySchema.composite("pk", "createdAt"), Projection.keysOnly())).toList();
        assertRefused(() -> new CreateTableRequest(r.accountId(), r.tableName(), r.keySchema(), r.attributeDefinitions(),
                r.gsis(), six, r.stream()), ErrorReason.VALIDATION, "limit of 5");

        assertRefused(() -> new CreateTableRequest(r.accountId(), r.tableName(), r.keySchema(),
                List.of(PK, SK, EMAIL, CREATED_AT, new AttributeDefinition("pk", ScalarType.B)), r.gsis(), r.lsis(),
                r.stream()), ErrorReason.VALIDATION, "'pk'");
    }

    @Test
    void d10_valuesRefuseWhatDynamoDbRefuses() {
        assertRefused(() -> new Projection(ProjectionType.ALL, List.of("note")), ErrorReason.VALIDATION, "note");
        assertRefused(() -> new StreamSpecification(true, Optional.empty()), ErrorReason.VALIDATION, "view type");
        assertRefused(() -> StreamSpecification.enabled("EVERYTHING"), ErrorReason.VALIDATION, "'EVERYTHING'");
        assertRefused(() -> new VectorIndex("vec", "embedding", 0, "COSINE", IndexStatus.ACTIVE),
                ErrorReason.VALIDATION, "0");
        assertRefused(() -> new GlobalSecondaryIndex("gsi", KeySchema.hashOnly("a"), Projection.all(),
                IndexStatus.ACTIVE, false, -1, 0), ErrorReason.VALIDATION, "-1");
    }
}
