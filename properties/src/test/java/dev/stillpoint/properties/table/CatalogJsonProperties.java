package dev.stillpoint.properties.table;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.itemjson.CatalogJson;
import dev.stillpoint.domain.table.Projection;
import dev.stillpoint.domain.table.StreamSpecification;
import dev.stillpoint.domain.table.TimeToLive;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The JSON columns the SQL catalogs keep a description's parts in: what is written is read back as
 * it was, so a snapshot's description is the storage layer's [S2], and a definition whose type is
 * not S, N or B is left out, so the table streams unordered [D1].
 */
class CatalogJsonProperties {

    // [S2] attribute definitions are read back as written, in order, in the documented shape.
    @Property
    void s2_catalogDefinitions_roundTrip(@ForAll("definitionLists") List<AttributeDefinition> definitions) {
        assertThat(CatalogJson.definitions(CatalogJson.definitions(definitions))).isEqualTo(definitions);
    }

    @Provide
    Arbitrary<List<AttributeDefinition>> definitionLists() {
        return Arbitraries.strings().withCharRange('a', 'z').withChars("_.-").ofMinLength(1).ofMaxLength(8)
                .list().uniqueElements().ofMaxSize(6)
                .flatMap(names -> Arbitraries.of(ScalarType.class).list().ofSize(names.size()).map(types -> {
                    List<AttributeDefinition> out = new ArrayList<>();
                    for (int i = 0; i < names.size(); i++) {
                        out.add(new AttributeDefinition(names.get(i), types.get(i)));
                    }
                    return out;
                }));
    }

    // [S2, D1] the stored shape is DynamoDB JSON an operator can read; a stored type other than S, N or B
    // (damaged, or of another type) is left out rather than guessed, so the key order resolves without it.
    @Example
    void d1_catalogDefinitions_shapeAndUnknownTypesLeftOut() {
        assertThat(CatalogJson.definitions(List.of(new AttributeDefinition("pk", ScalarType.S),
                new AttributeDefinition("n", ScalarType.N), new AttributeDefinition("b", ScalarType.B))))
                .isEqualTo("{\"pk\":{\"S\":\"S\"},\"n\":{\"S\":\"N\"},\"b\":{\"S\":\"B\"}}");
        assertThat(CatalogJson.definitions(List.of())).isEqualTo("{}");
        assertThat(CatalogJson.definitions(
                "{\"a\":{\"S\":\"S\"},\"x\":{\"S\":\"BOOL\"},\"y\":{\"S\":\"s\"},\"z\":{\"N\":\"1\"},\"w\":{\"S\":\"\"},"
                        + "\"b\":{\"S\":\"B\"},\"c\":{\"S\":\"N\"}}"))
                .containsExactly(new AttributeDefinition("a", ScalarType.S), new AttributeDefinition("b", ScalarType.B),
                        new AttributeDefinition("c", ScalarType.N));
    }

    // [S2] a projection is read back as written: its type and its non-key attributes, in order.
    @Property
    void s2_catalogProjection_roundTrips(@ForAll("projections") Projection projection) {
        String json = CatalogJson.projection(projection);
        assertThat(CatalogJson.projection(json)).isEqualTo(projection);
    }

    @Provide
    Arbitrary<Projection> projections() {
        return Arbitraries.oneOf(Arbitraries.of(Projection.all(), Projection.keysOnly()),
                Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(6).list().uniqueElements().ofMaxSize(4)
                        .map(Projection::include));
    }

    // [S2] the stream setting is read back as written; no setting is stored as no value (SQL NULL).
    @Property
    void s2_catalogStream_roundTrips(@ForAll("streams") Optional<StreamSpecification> stream) {
        String json = CatalogJson.stream(stream);
        assertThat(json == null).isEqualTo(stream.isEmpty());
        assertThat(CatalogJson.stream(json)).isEqualTo(stream);
    }

    @Provide
    Arbitrary<Optional<StreamSpecification>> streams() {
        Arbitrary<Optional<StreamSpecification>> none = Arbitraries.just(Optional.empty());
        Arbitrary<Optional<StreamSpecification>> enabled = Arbitraries.of(StreamSpecification.VIEW_TYPES)
                .map(viewType -> Optional.of(StreamSpecification.enabled(viewType)));
        Arbitrary<Optional<StreamSpecification>> disabled = Arbitraries.of(
                Optional.of(StreamSpecification.disabled()), Optional.of(new StreamSpecification(false, Optional.of("KEYS_ONLY"))));
        return Arbitraries.oneOf(none, enabled, disabled);
    }

    // [S2] the time-to-live setting is read from its stored shape; no setting reads as none.
    @Property
    void s2_catalogTtl_reads(@ForAll("attributeNames") String attribute, @ForAll boolean enabled) {
        String json = "{\"attributeName\":{\"S\":\"" + attribute + "\"},\"enabled\":{\"BOOL\":" + enabled + "}}";
        assertThat(CatalogJson.ttl(json)).contains(new TimeToLive(attribute, enabled));
        assertThat(CatalogJson.ttl((String) null)).isEmpty();
    }

    // [S2, E4] a time-to-live setting written for the catalog reads back as itself; none writes nothing.
    @Property
    void s2_catalogTtl_roundTrips(@ForAll("attributeNames") String attribute, @ForAll boolean enabled) {
        TimeToLive ttl = new TimeToLive(attribute, enabled);
        assertThat(CatalogJson.ttl(CatalogJson.ttl(Optional.of(ttl)))).contains(ttl);
        assertThat(CatalogJson.ttl(Optional.<TimeToLive>empty())).isNull();
    }

    @Provide
    Arbitrary<String> attributeNames() {
        return Arbitraries.strings().alpha().numeric().ofMinLength(1).ofMaxLength(10);
    }
}
