package dev.stillpoint.properties.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.LocalSecondaryIndex;
import dev.stillpoint.domain.table.Projection;
import dev.stillpoint.domain.table.StreamSpecification;
import dev.stillpoint.domain.table.TimeToLive;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The CreateTable builder [D1]: a request built by name equals the one written out positionally, each
 * key attribute defined once with the type its declaration gave, and it is checked as that one is.
 */
class CreateTableBuilderTest {

    @Test
    void d1_aRequestBuiltByNameEqualsTheOneWrittenOutPositionally() {
        CreateTableRequest built = CreateTableRequest.builder("acct", "orders")
                .partitionKey("customer", ScalarType.S)
                .sortKey("placed", ScalarType.N)
                .globalIndex("by_status", "status", ScalarType.S, Projection.all())
                .globalIndex("by_total", "region", ScalarType.S, "total", ScalarType.N, Projection.keysOnly())
                .localIndex("by_code", "code", ScalarType.B, Projection.include(List.of("note")))
                .stream("NEW_AND_OLD_IMAGES")
                .timeToLive("expires", true)
                .build();
        CreateTableRequest written = new CreateTableRequest("acct", "orders", KeySchema.composite("customer", "placed"),
                List.of(new AttributeDefinition("customer", ScalarType.S), new AttributeDefinition("placed", ScalarType.N),
                        new AttributeDefinition("status", ScalarType.S), new AttributeDefinition("region", ScalarType.S),
                        new AttributeDefinition("total", ScalarType.N), new AttributeDefinition("code", ScalarType.B)),
                List.of(GlobalSecondaryIndex.creating("by_status", KeySchema.hashOnly("status"), Projection.all()),
                        GlobalSecondaryIndex.creating("by_total", KeySchema.composite("region", "total"), Projection.keysOnly())),
                List.of(LocalSecondaryIndex.of("by_code", KeySchema.composite("customer", "code"), Projection.include(List.of("note")))),
                Optional.of(StreamSpecification.enabled("NEW_AND_OLD_IMAGES")),
                Optional.of(new TimeToLive("expires", true)));
        assertThat(built).isEqualTo(written);
    }

    @Test
    void d1_aTableKeyedByItsPartitionKeyAloneHasAHashOnlySchemaAndOneDefinition() {
        CreateTableRequest built = CreateTableRequest.builder("acct", "events").partitionKey("id", ScalarType.N).build();
        assertThat(built.keySchema()).isEqualTo(KeySchema.hashOnly("id"));
        assertThat(built.attributeDefinitions()).containsExactly(new AttributeDefinition("id", ScalarType.N));
        assertThat(built.gsis()).isEmpty();
        assertThat(built.lsis()).isEmpty();
        assertThat(built.stream()).isEmpty();
        assertThat(built.timeToLive()).isEmpty();
    }

    @Test
    void d1_aBuilderWithoutAPartitionKeyIsRefusedNamingTheTable() {
        assertThatThrownBy(() -> CreateTableRequest.builder("acct", "events").build())
                .isInstanceOfSatisfying(StorageException.class, e -> {
                    assertThat(e.reason()).isEqualTo(ErrorReason.VALIDATION);
                    assertThat(e.getMessage()).contains("key schema of table 'events'");
                });
    }

    // A table's ARN is the form DynamoDB Local gives (arn:aws:dynamodb:local:<account>:table/<name>), stated once
    // for every backend: SQL, MongoDB and Cassandra each wrote it out before.
    @Test
    void d1_theNewTablesArnNamesItsAccountAndName() {
        CreateTableRequest request = CreateTableRequest.builder("123456789012", "Orders").partitionKey("pk", ScalarType.S)
                .build();
        assertThat(request.tableArn()).isEqualTo("arn:aws:dynamodb:local:123456789012:table/Orders");
        assertThat(request.describe("id", request.tableArn(), java.time.Instant.EPOCH).tableArn())
                .isEqualTo(request.tableArn());
    }
}
