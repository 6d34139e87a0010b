package dev.stillpoint.properties.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateGsiRequest;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.Projection;
import dev.stillpoint.domain.table.ProjectionType;
import dev.stillpoint.domain.table.StreamSpecification;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * [V1, R6] Two CreateTable rules DynamoDB enforces that Stillpoint did not, found by comparing with the Parity Suite
 * (nubo-db/dynamodb-conformance, {@code tests/tier1/createTable/specValidation.test.ts}), whose cases are recorded
 * against live DynamoDB: an INCLUDE projection without non-key attributes ("One or more parameter values were invalid:
 * ProjectionType is INCLUDE, but NonKeyAttributes is not specified", recorded in nubo-db/dynoxide issue 116; the API
 * reference's Projection says NonKeyAttributes holds "Minimum number of 1 item",
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_Projection.html), and a disabled stream given a
 * view type ("Table is being created with a stream disabled, UpdateViewType should not be specified", nubo-db/dynoxide
 * issue 115). dynalite, the earlier reference, accepts both when NonKeyAttributes is absent.
 */
class CreateTableRecordedRulesTest {

    private static final Projection INCLUDE_NOTHING = new Projection(ProjectionType.INCLUDE, List.of());

    private static StorageException refusal(Runnable call) {
        StorageException e = Refusals.thrownBy(call);
        assertThat(e.reason()).isEqualTo(ErrorReason.VALIDATION);
        return e;
    }

    private static CreateTableRequest withGsi(Projection projection) {
        return CreateTableRequest.builder("000000000000", "recorded").partitionKey("pk", ScalarType.S).sortKey("sk", ScalarType.N)
                .globalIndex("by_g", "g", ScalarType.S, projection).build();
    }

    private static CreateTableRequest withLsi(Projection projection) {
        return CreateTableRequest.builder("000000000000", "recorded").partitionKey("pk", ScalarType.S).sortKey("sk", ScalarType.N)
                .localIndex("by_l", "l", ScalarType.N, projection).build();
    }

    private static CreateTableRequest withStream(StreamSpecification stream) {
        CreateTableRequest r = CreateTableRequest.builder("000000000000", "streamed").partitionKey("pk", ScalarType.S).build();
        return new CreateTableRequest(r.accountId(), r.tableName(), r.keySchema(), r.attributeDefinitions(), r.gsis(), r.lsis(),
                Optional.of(stream));
    }

    @Test
    void v1_anIncludeProjectionNamesAnAttribute_atCreateTable() {
        assertThat(refusal(() -> withGsi(INCLUDE_NOTHING)).getMessage()).as("[R6] the index and what INCLUDE needs")
                .contains("global secondary index 'by_g'").contains("INCLUDE").contains("names no non-key attribute");
        assertThat(refusal(() -> withLsi(INCLUDE_NOTHING)).getMessage()).as("[R6] a local index likewise")
                .contains("local secondary index 'by_l'").contains("names no non-key attribute");
        assertThatCode(() -> withGsi(Projection.include(List.of("note")))).as("[V1] INCLUDE of one attribute")
                .doesNotThrowAnyException();
        assertThatCode(() -> withLsi(Projection.keysOnly())).as("[V1] KEYS_ONLY names none").doesNotThrowAnyException();
    }

    @Test
    void v1_anIncludeProjectionNamesAnAttribute_atUpdateTable() {
        TableDescription table = withGsi(Projection.all()).describe("id", "arn", Instant.EPOCH).withStatus(TableStatus.ACTIVE);
        CreateGsiRequest nothing = new CreateGsiRequest(GlobalSecondaryIndex.creating("by_x", KeySchema.hashOnly("x"),
                INCLUDE_NOTHING), List.of(new AttributeDefinition("x", ScalarType.S)));
        assertThat(refusal(() -> table.applyCreateGsi(nothing)).getMessage()).as("[R6] the new index named")
                .contains("global secondary index 'by_x'").contains("names no non-key attribute");
        assertThat(table.globalSecondaryIndexes()).as("nothing added by the refused request").hasSize(1);
    }

    @Test
    void v1_aStoredIncludeOfNothingStillLoadsAndTakesAnotherIndex() {
        // Created before this check: read, not created, so neither refused nor in the way of the next index.
        TableDescription d = withGsi(Projection.all()).describe("id", "arn", Instant.EPOCH).withStatus(TableStatus.ACTIVE);
        TableDescription stored = new TableDescription(d.accountId(), d.tableName(), d.tableId(), d.tableArn(), d.status(),
                d.creationTime(), d.keySchema(), d.attributeDefinitions(),
                List.of(GlobalSecondaryIndex.creating("old", KeySchema.hashOnly("pk"), INCLUDE_NOTHING)),
                d.localSecondaryIndexes(), d.vectorIndexes(), d.streamSpecification(), d.timeToLive(), d.restoreSummary(),
                d.throughputModeSummary(), d.itemCount(), d.tableSizeBytes(), d.changeLog());
        CreateGsiRequest next = new CreateGsiRequest(GlobalSecondaryIndex.creating("by_x", KeySchema.hashOnly("x"),
                Projection.keysOnly()), List.of(new AttributeDefinition("x", ScalarType.S)));
        assertThat(stored.applyCreateGsi(next).globalSecondaryIndexes()).extracting(GlobalSecondaryIndex::name)
                .containsExactly("old", "by_x");
    }

    @Test
    void v1_aDisabledStreamTakesNoViewType() {
        assertThat(refusal(() -> withStream(new StreamSpecification(false, Optional.of("NEW_IMAGE")))).getMessage())
                .as("[R6] the table and the view type given").contains("'streamed'").contains("stream disabled")
                .contains("NEW_IMAGE");
        assertThatCode(() -> withStream(StreamSpecification.disabled())).as("[V1] disabled without a view type")
                .doesNotThrowAnyException();
        assertThatCode(() -> withStream(StreamSpecification.enabled("NEW_IMAGE"))).as("[V1] enabled with one")
                .doesNotThrowAnyException();
    }
}
