package dev.stillpoint.properties.table;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.table.Projection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * What an index entry holds [projection], from AWS's API Reference, "Projection"
 * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_Projection.html): KEYS_ONLY holds
 * "only the index and primary keys", INCLUDE those "in addition to ... other non-key attributes that you
 * specify", ALL "all of the table attributes"; the primary and index keys "are automatically projected".
 */
class ProjectionEntryProperties {

    private static final KeySchema TABLE = KeySchema.composite("pk", "sk");
    private static final KeySchema INDEX = KeySchema.composite("gpk", "gsk");

    private static Item item(String... namesAndValues) {
        Map<String, AttributeValue> m = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            m.put(namesAndValues[i], new AttributeValue.S(namesAndValues[i + 1]));
        }
        return Item.of(m);
    }

    @Example
    void keysOnlyHoldsTheTablesAndTheIndexsKeysOnly() {
        Item base = item("pk", "p", "sk", "s", "gpk", "g", "gsk", "h", "colour", "red");
        assertThat(Projection.keysOnly().entryOf(TABLE, INDEX, base))
                .isEqualTo(item("pk", "p", "sk", "s", "gpk", "g", "gsk", "h"));
    }

    @Example
    void includeAddsTheNamedAttributesTheItemHas() {
        Item base = item("pk", "p", "gpk", "g", "colour", "red", "size", "9");
        assertThat(Projection.include(List.of("colour", "shape")).entryOf(TABLE, KeySchema.hashOnly("gpk"), base))
                .isEqualTo(item("pk", "p", "gpk", "g", "colour", "red"));
    }

    @Example
    void allHoldsTheWholeItem() {
        Item base = item("pk", "p", "gpk", "g", "colour", "red");
        assertThat(Projection.all().entryOf(TABLE, INDEX, base)).isEqualTo(base);
    }

    /** Whatever the item, an entry keeps exactly the attributes its projection names, values unchanged. */
    @Property
    void anEntryIsTheItemRestrictedToTheProjectedNames(@ForAll("items") Map<String, String> attributes,
                                                       @ForAll("includes") List<String> included) {
        Item base = item(attributes.entrySet().stream().flatMap(e -> List.of(e.getKey(), e.getValue()).stream())
                .toArray(String[]::new));
        Set<String> keys = Set.of("pk", "sk", "gpk", "gsk");
        Item keysOnly = Projection.keysOnly().entryOf(TABLE, INDEX, base);
        Item include = included.isEmpty() ? keysOnly : Projection.include(included).entryOf(TABLE, INDEX, base);
        base.attributes().forEach((name, value) -> {
            assertThat(keysOnly.attributes().get(name)).as(name).isEqualTo(keys.contains(name) ? value : null);
            boolean named = keys.contains(name) || included.contains(name);
            assertThat(include.attributes().get(name)).as(name).isEqualTo(named ? value : null);
        });
        assertThat(base.attributes()).containsAllEntriesOf(include.attributes());
    }

    @Provide
    Arbitrary<Map<String, String>> items() {
        return Arbitraries.maps(names(), Arbitraries.strings().alpha().ofMaxLength(3)).ofMaxSize(8);
    }

    @Provide
    Arbitrary<List<String>> includes() {
        return names().list().uniqueElements().ofMaxSize(4);
    }

    private static Arbitrary<String> names() {
        return Arbitraries.of("pk", "sk", "gpk", "gsk", "a", "b", "c", "d");
    }
}
