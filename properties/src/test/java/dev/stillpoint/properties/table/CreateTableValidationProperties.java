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
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.Tuple.Tuple2;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/** CreateTable requests are checked on construction; every refusal is a Validation naming the culprit [D3a, D10]. */
class CreateTableValidationProperties {

    @Provide
    Arbitrary<CreateTableRequest> requests() {
        return TableArbitraries.createTableRequests();
    }

    /** Names that break the rule: too short, or with a character outside [a-zA-Z0-9_.-]. Short enough to be shown whole. */
    @Provide
    Arbitrary<String> invalidNames() {
        Arbitrary<String> tooShort = Arbitraries.strings().alpha().numeric().ofMaxLength(2);
        Arbitrary<String> badCharacter = Combinators.combine(
                        Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(20),
                        Arbitraries.of(' ', '/', ':', '#', '$', '@', '!', '*', 'é', '\u00a0'),
                        Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(20))
                .as((a, bad, b) -> a + bad + b);
        return Arbitraries.oneOf(tooShort, badCharacter);
    }

    /** A valid request and one of its key attributes. */
    @Provide
    Arbitrary<Tuple2<CreateTableRequest, String>> requestsAndAKeyAttribute() {
        return requests().flatMap(r -> Arbitraries.of(TableArbitraries.keyAttributesOf(
                        r.describe("tbl-1", "arn:t", TableArbitraries.CREATED), r.gsis()).stream().toList())
                .map(name -> Tuple.of(r, name)));
    }

    // [D10] the generator's requests are all valid, and so is the description of the table they create.
    @Property
    void d10_createTable_acceptsAWellFormedRequest_andDescribesItCreating(@ForAll("requests") CreateTableRequest r) {
        TableDescription d = r.describe("tbl-1", "arn:aws:dynamodb:local:1:table/" + r.tableName(), TableArbitraries.CREATED);

        assertThat(d.status()).isEqualTo(TableStatus.CREATING);
        assertThat(d.requireKeyAttributesDefined()).isSameAs(d);
        assertThat(d.itemCount()).isZero();
    }

    // [D3a] a bad table name is refused with a Validation that names it.
    @Property
    void d3a_createTable_refusesAnInvalidTableName_namingIt(
            @ForAll("requests") CreateTableRequest r, @ForAll("invalidNames") String name) {
        assertValidationNaming(() -> new CreateTableRequest(r.accountId(), name, r.keySchema(),
                r.attributeDefinitions(), r.gsis(), r.lsis(), r.stream()), name);
    }

    // [D3a] a bad index name is refused with a Validation that names it.
    @Property
    void d3a_index_refusesAnInvalidIndexName_namingIt(@ForAll("invalidNames") String name) {
        assertValidationNaming(() -> GlobalSecondaryIndex.creating(name, KeySchema.hashOnly("pk"), Projection.all()),
                name);
    }

    // [D10] every key attribute of the table and its indexes needs a definition; the refusal names the attribute.
    @Property
    void d10_createTable_refusesAnUndefinedKeyAttribute_namingIt(
            @ForAll("requestsAndAKeyAttribute") Tuple2<CreateTableRequest, String> example) {
        CreateTableRequest r = example.get1();
        String attribute = example.get2();
        List<AttributeDefinition> without = r.attributeDefinitions().stream()
                .filter(d -> !d.name().equals(attribute)).toList();

        assertValidationNaming(() -> new CreateTableRequest(r.accountId(), r.tableName(), r.keySchema(), without,
                r.gsis(), r.lsis(), r.stream()), "'" + attribute + "'");
    }

    // [D10] a definition no key uses is refused (DynamoDB's rule), naming it.
    @Property
    void d10_createTable_refusesADefinitionNoKeyUses_namingIt(@ForAll("requests") CreateTableRequest r,
            @ForAll("strayNames") String stray, @ForAll ScalarType type) {
        List<AttributeDefinition> with = new ArrayList<>(r.attributeDefinitions());
        with.add(new AttributeDefinition(stray, type));

        assertValidationNaming(() -> new CreateTableRequest(r.accountId(), r.tableName(), r.keySchema(), with,
                r.gsis(), r.lsis(), r.stream()), "'" + stray + "'");
    }

    @Provide
    Arbitrary<String> strayNames() {
        return Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(12).map(s -> "unused_" + s);
    }

    // [D10] a local index needs a table with a sort key; the refusal names the index.
    @Property
    void d10_createTable_refusesALocalIndexOnATableWithoutSortKey(@ForAll("requests") CreateTableRequest r) {
        KeySchema hashOnly = KeySchema.hashOnly(r.keySchema().partitionKey());
        LocalSecondaryIndex lsi = LocalSecondaryIndex.of("by_date",
                KeySchema.composite(hashOnly.partitionKey(), "a4"), Projection.keysOnly());
        List<AttributeDefinition> definitions = List.of(
                new AttributeDefinition(hashOnly.partitionKey(), ScalarType.S), new AttributeDefinition("a4", ScalarType.N));

        assertValidationNaming(() -> new CreateTableRequest(r.accountId(), r.tableName(), hashOnly, definitions,
                List.of(), List.of(lsi), Optional.empty()), "'by_date'");
    }

    private static void assertValidationNaming(ThrowingCallable call, String named) {
        assertThatThrownBy(call)
                .isInstanceOf(StorageException.class)
                .satisfies(e -> assertThat(((StorageException) e).reason()).isEqualTo(ErrorReason.VALIDATION))
                .hasMessageContaining(named);
    }
}
