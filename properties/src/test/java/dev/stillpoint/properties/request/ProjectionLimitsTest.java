package dev.stillpoint.properties.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateGsiRequest;
import dev.stillpoint.domain.table.CreateTableBuilder;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.Projection;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import java.time.Instant;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * [V1, R6] DynamoDB's limits on projected attributes, from the API reference's Projection
 * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_Projection.html): NonKeyAttributes
 * holds "Maximum number of 20 items", each of "Minimum length of 1. Maximum length of 255" (the words it uses of
 * a key attribute's name, which [R2] reads as bytes of UTF-8), and "the total
 * count of NonKeyAttributes summed across all of the secondary indexes, must not exceed 100. If you project
 * the same attribute into two different indexes, this counts as two distinct attributes". Each boundary from
 * both sides, at CreateTable and at UpdateTable's GSI addition. Found missing by a differential run against
 * dynalite, which checks none of them either: the reference here is the documentation.
 */
class ProjectionLimitsTest {

    private static List<String> names(String prefix, int count) {
        return IntStream.range(0, count).mapToObj(i -> prefix + i).toList();
    }

    /** A table keyed on pk with one GSI per projection, each on its own partition key g0, g1, ... */
    private static CreateTableRequest table(Projection... projections) {
        CreateTableBuilder b = CreateTableRequest.builder("000000000000", "projected").partitionKey("pk", ScalarType.S);
        for (int i = 0; i < projections.length; i++) {
            b.globalIndex("gsi" + i, "g" + i, ScalarType.S, projections[i]);
        }
        return b.build();
    }

    private static StorageException refusal(Runnable call) {
        StorageException e = Refusals.thrownBy(call);
        assertThat(e.reason()).isEqualTo(ErrorReason.VALIDATION);
        return e;
    }

    @Test
    void v1_oneProjectionNamesAtMostTwentyAttributes() {
        assertThatCode(() -> table(Projection.include(names("v", 20)))).as("[V1] 20 names").doesNotThrowAnyException();
        assertThat(refusal(() -> table(Projection.include(names("v", 21)))).getMessage())
                .as("[R6] the refusal says how many and the limit").contains("21").contains("20").contains("'projected'");
    }

    @Test
    void v1_aProjectedNameHasAtMost255BytesAsAKeyName() {
        assertThatCode(() -> table(Projection.include(List.of("n".repeat(255))))).as("[V1] 255 characters")
                .doesNotThrowAnyException();
        assertThatCode(() -> table(Projection.include(List.of("\u00e9".repeat(127))))).as("[R2] 254 bytes of UTF-8")
                .doesNotThrowAnyException();
        assertThat(refusal(() -> table(Projection.include(List.of("n".repeat(256))))).getMessage())
                .as("[R6] the refusal names the length and the limit").contains("256").contains("255");
        assertThat(refusal(() -> table(Projection.include(List.of("\u00e9".repeat(128))))).getMessage())
                .as("[R2] 128 characters, 256 bytes of UTF-8, as a key attribute's name is measured").contains("256 bytes");
        CreateGsiRequest longName = new CreateGsiRequest(GlobalSecondaryIndex.creating("extra", KeySchema.hashOnly("x"),
                Projection.include(List.of("n".repeat(256)))), List.of(new AttributeDefinition("x", ScalarType.S)));
        TableDescription active = table().describe("id", "arn", Instant.EPOCH).withStatus(TableStatus.ACTIVE);
        assertThat(refusal(() -> active.applyCreateGsi(longName)).getMessage()).as("[R6] at UpdateTable too").contains("256");
    }

    @Test
    void v1_aStoredDefinitionBeyondTheLimitsStillLoads() {
        // A table created before these checks: its description is read, not created, so it is not refused.
        List<String> many = names("v", 21);
        TableDescription d = table().describe("id", "arn", Instant.EPOCH);
        TableDescription stored = new TableDescription(d.accountId(), d.tableName(), d.tableId(), d.tableArn(), d.status(),
                d.creationTime(), d.keySchema(), d.attributeDefinitions(),
                List.of(GlobalSecondaryIndex.creating("old", KeySchema.hashOnly("pk"), Projection.include(many))),
                d.localSecondaryIndexes(), d.vectorIndexes(), d.streamSpecification(), d.timeToLive(), d.restoreSummary(),
                d.throughputModeSummary(), d.itemCount(), d.tableSizeBytes(), d.changeLog());
        assertThat(stored.globalSecondaryIndexes().get(0).projection().nonKeyAttributes()).hasSize(21);
    }

    @Test
    void v1_aTablesIndexesProjectAtMostOneHundredAttributesInAll_atCreateTable() {
        Projection twenty = Projection.include(names("v", 20));
        assertThatCode(() -> table(twenty, twenty, twenty, twenty, twenty)).as("[V1] 100 over five indexes, a name"
                + " repeated across indexes").doesNotThrowAnyException();
        StorageException e = refusal(() -> table(twenty, twenty, twenty, twenty, twenty, Projection.include(List.of("w"))));
        assertThat(e.getMessage()).as("[R6] the table, the total and the limit").contains("'projected'").contains("101")
                .contains("100");
        assertThatCode(() -> table(twenty, Projection.all(), Projection.keysOnly())).as("[V1] ALL and KEYS_ONLY count nothing")
                .doesNotThrowAnyException();
    }

    @Test
    void v1_aGsiAddedByUpdateTableCountsTowardsTheHundred() {
        Projection twenty = Projection.include(names("v", 20));
        TableDescription table = table(twenty, twenty, twenty, twenty, Projection.include(names("v", 19)))
                .describe("id", "arn", Instant.EPOCH).withStatus(TableStatus.ACTIVE);
        CreateGsiRequest one = new CreateGsiRequest(GlobalSecondaryIndex.creating("extra", KeySchema.hashOnly("x"),
                Projection.include(List.of("w"))), List.of(new AttributeDefinition("x", ScalarType.S)));
        assertThat(table.applyCreateGsi(one).globalSecondaryIndexes()).as("[V1] the 100th attribute").hasSize(6);
        CreateGsiRequest two = new CreateGsiRequest(GlobalSecondaryIndex.creating("extra", KeySchema.hashOnly("x"),
                Projection.include(List.of("w", "y"))), List.of(new AttributeDefinition("x", ScalarType.S)));
        assertThat(refusal(() -> table.applyCreateGsi(two)).getMessage()).as("[R6] the 101st").contains("101");
    }
}
