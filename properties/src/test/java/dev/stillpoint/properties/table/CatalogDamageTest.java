package dev.stillpoint.properties.table;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.table.CatalogDamage;
import dev.stillpoint.itemjson.CatalogJson;
import dev.stillpoint.properties.request.Refusals;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Catalog damage [R6], pure: a catalog entry that cannot be read is reported as an Internal error
 * saying "catalog damage", naming the table and, where known, the field and its stored text; never as
 * the caller's validation error or an item error; a storage failure passes through unchanged.
 */
class CatalogDamageTest {

    private static StorageException reading(RuntimeException failure) {
        return Refusals.thrownBy(() -> CatalogDamage.reading("orders", () -> {
            throw failure;
        }));
    }

    @Test
    void r6_aDamagedFieldNamesTheFieldAndItsStoredTextCutAfterEightyCharacters() {
        for (int length : List.of(0, 1, 79, 80, 81, 200)) {
            String stored = "x".repeat(length);
            StorageException e = CatalogDamage.field("projection", stored, new IllegalStateException("bad"));
            String shown = length > 80 ? "'" + stored.substring(0, 80) + "...'" : "'" + stored + "'";
            assertThat(e.reason()).isEqualTo(ErrorReason.INTERNAL);
            assertThat(e.getMessage()).as("[R6] %s stored characters", length)
                    .isEqualTo("catalog damage: the stored projection (" + shown + ") cannot be read");
            assertThat(CatalogDamage.isDamage(e)).isTrue();
        }
        assertThat(CatalogDamage.field("stream", null, new IllegalStateException()).getMessage())
                .isEqualTo("catalog damage: the stored stream (nothing) cannot be read");
    }

    @Test
    void r6_aParserRefusalIsKeptInTheMessageAsAJsonErrorNotAnItemError() {
        StorageException parser = StorageException.validation("invalid item JSON at position 3: expected '{'");
        assertThat(CatalogDamage.field("projection", "[]", parser).getMessage())
                .isEqualTo("catalog damage: the stored projection ('[]') cannot be read: invalid JSON at position 3: expected '{'");
        StorageException fromCatalogJson = Refusals.thrownBy(() -> CatalogJson.projection("{not json"));
        assertThat(fromCatalogJson.reason()).isEqualTo(ErrorReason.INTERNAL);
        assertThat(fromCatalogJson.getMessage()).startsWith("catalog damage: the stored projection ('{not json') cannot be read: ")
                .doesNotContain("item");
    }

    @Test
    void r6_onlyAnInternalErrorCarryingTheMarkIsDamage() {
        assertThat(CatalogDamage.isDamage(new StorageException(ErrorReason.INTERNAL, "table 't': catalog damage: x"))).isTrue();
        assertThat(CatalogDamage.isDamage(new StorageException(ErrorReason.VALIDATION, "catalog damage: x"))).isFalse();
        assertThat(CatalogDamage.isDamage(new StorageException(ErrorReason.INTERNAL, "disk full"))).isFalse();
        assertThat(CatalogDamage.isDamage(new StorageException(ErrorReason.INTERNAL, null))).isFalse();
    }

    @Test
    void r6_aReadThatSucceedsReturnsWhatItRead() {
        Supplier<List<String>> read = () -> List.of("pk", "sk");
        assertThat(CatalogDamage.reading("orders", read)).containsExactly("pk", "sk");
    }

    @Test
    void r6_everyDecodingFailureBecomesCatalogDamageOfTheTable() {
        for (RuntimeException failure : List.of(new IllegalArgumentException("a"), new IllegalStateException("b"),
                new NullPointerException("c"), new ClassCastException("d"))) {
            StorageException e = reading(failure);
            assertThat(e.reason()).isEqualTo(ErrorReason.INTERNAL);
            assertThat(e.getMessage()).as("[R6] %s", failure).isEqualTo("table 'orders': catalog damage: a stored field of"
                    + " its catalog entry holds a value this version cannot read");
            assertThat(e.getCause()).isSameAs(failure);
            assertThat(CatalogDamage.isDamage(e)).isTrue();
        }
    }

    @Test
    void r6_aStoredValueTheDomainRefusesIsDamageNotTheCallersValidationError() {
        StorageException refused = StorageException.validation("index name 'x' must be 3-255 characters long, is 1");
        StorageException e = reading(refused);
        assertThat(e.reason()).isEqualTo(ErrorReason.INTERNAL);
        assertThat(e.getMessage()).isEqualTo("table 'orders': catalog damage: " + refused.getMessage());
        assertThat(e.getCause()).isSameAs(refused);
    }

    @Test
    void r6_aDamagedFieldGainsItsTable_aStorageFailurePassesThroughUnchanged() {
        StorageException field = CatalogDamage.field("projection", "[]", new IllegalStateException());
        StorageException named = reading(field);
        assertThat(named.reason()).isEqualTo(ErrorReason.INTERNAL);
        assertThat(named.getMessage()).isEqualTo("table 'orders': " + field.getMessage());
        for (StorageException failure : List.of(new StorageException(ErrorReason.TRANSIENT, "connection reset"),
                new StorageException(ErrorReason.INTERNAL, "disk full"), StorageException.tableNotFound("orders"))) {
            assertThat(reading(failure)).as("[R6] %s passes through", failure.getMessage()).isSameAs(failure);
        }
    }

    // Issue 28: one catalog codec. The stream view type is written as "viewType" by every catalog; a
    // Cassandra row written by the adapter's former copy spells it "view_type" and still reads.
    @Test
    void aStreamSettingIsWrittenAsViewTypeAndReadInEitherSpelling() {
        java.util.Optional<dev.stillpoint.domain.table.StreamSpecification> newImage = java.util.Optional.of(
                new dev.stillpoint.domain.table.StreamSpecification(true, java.util.Optional.of("NEW_IMAGE")));
        assertThat(CatalogJson.stream(newImage)).isEqualTo("{\"enabled\":{\"BOOL\":true},\"viewType\":{\"S\":\"NEW_IMAGE\"}}");
        assertThat(CatalogJson.stream("{\"enabled\":{\"BOOL\":true},\"viewType\":{\"S\":\"NEW_IMAGE\"}}"))
                .as("the shared spelling").isEqualTo(newImage);
        assertThat(CatalogJson.stream("{\"enabled\":{\"BOOL\":true},\"view_type\":{\"S\":\"NEW_IMAGE\"}}"))
                .as("an old Cassandra row's spelling").isEqualTo(newImage);
    }
}
