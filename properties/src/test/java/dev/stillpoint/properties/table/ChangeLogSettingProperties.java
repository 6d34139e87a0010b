package dev.stillpoint.properties.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.ChangeLog;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.StreamSpecification;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.itemjson.CatalogJson;
import java.time.Instant;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The change log setting [I1]: off unless CreateTable asks for it, carried by the request into the new
 * table's description and through every copy the domain makes of a description, reported as DynamoDB
 * reports point-in-time recovery, and stored beside the stream setting so that text stored before the
 * setting existed still reads back as off.
 */
class ChangeLogSettingProperties {

    // [I1] off by default: a request that says nothing keeps no log, and its table says DISABLED.
    @Example
    void i1_offUnlessAsked() {
        CreateTableRequest request = CreateTableRequest.builder("acct", "orders").partitionKey("pk", ScalarType.S).build();
        assertThat(request.changeLog()).isEqualTo(ChangeLog.OFF);
        TableDescription d = request.describe("id1", "arn:t", Instant.EPOCH);
        assertThat(d.changeLog()).isEqualTo(ChangeLog.OFF);
        assertThat(d.changeLog().status()).isEqualTo("DISABLED");
    }

    // [I1] a log asked for at CreateTable is in the new table's description, and stays through every
    // copy the domain makes of it (status change, counts, snapshot view, index changes).
    @Property
    void i1_theSettingSurvivesEveryCopyOfTheDescription(@ForAll ChangeLog setting) {
        TableDescription d = CreateTableRequest.builder("acct", "orders").partitionKey("pk", ScalarType.S)
                .sortKey("sk", ScalarType.N).changeLog(setting).build()
                .describe("id1", "arn:t", Instant.EPOCH);
        assertThat(d.changeLog()).isEqualTo(setting);
        assertThat(d.withStatus(TableStatus.ACTIVE).changeLog()).isEqualTo(setting);
        assertThat(d.withCounts(3, 40).changeLog()).isEqualTo(setting);
        assertThat(d.snapshotView().changeLog()).isEqualTo(setting);
        assertThat(d.dropDeletingIndexes().changeLog()).isEqualTo(setting);
        assertThat(d.withChangeLog(ChangeLog.OFF).changeLog()).isEqualTo(ChangeLog.OFF);
        assertThat(d.changeLog().status()).isEqualTo(setting == ChangeLog.OFF ? "DISABLED" : "ENABLED");
        assertThat(d.changeLog().keepsOldImage()).isEqualTo(setting == ChangeLog.NEW_AND_OLD_IMAGES);
    }

    // [I1] stream and change log share the stream's catalog text; each reads back as written, alone or together.
    @Property
    void i1_storedBesideTheStream_roundTrip(@ForAll("streams") Optional<StreamSpecification> stream,
                                            @ForAll ChangeLog setting) {
        String stored = CatalogJson.stream(stream, setting);
        assertThat(CatalogJson.stream(stored)).isEqualTo(stream);
        assertThat(CatalogJson.changeLog(stored)).isEqualTo(setting);
        if (stream.isEmpty() && setting == ChangeLog.OFF) {
            assertThat(stored).isNull();
        }
    }

    @Provide
    Arbitrary<Optional<StreamSpecification>> streams() {
        return Arbitraries.oneOf(Arbitraries.just(Optional.empty()),
                Arbitraries.just(Optional.of(StreamSpecification.disabled())),
                Arbitraries.of(StreamSpecification.VIEW_TYPES).map(v -> Optional.of(StreamSpecification.enabled(v))));
    }

    // [I1] text stored before the setting existed (a stream, or nothing) reads back as OFF, never as damage.
    @Example
    void i1_textStoredBeforeTheSettingReadsAsOff() {
        assertThat(CatalogJson.changeLog(null)).isEqualTo(ChangeLog.OFF);
        assertThat(CatalogJson.changeLog("{\"enabled\":{\"BOOL\":true},\"viewType\":{\"S\":\"NEW_IMAGE\"}}"))
                .isEqualTo(ChangeLog.OFF);
        assertThat(CatalogJson.stream("{\"changeLog\":{\"S\":\"NEW_IMAGE\"}}")).isEmpty();
        assertThat(CatalogJson.stream(Optional.empty(), ChangeLog.NEW_AND_OLD_IMAGES))
                .isEqualTo("{\"changeLog\":{\"S\":\"NEW_AND_OLD_IMAGES\"}}");
    }

    // [I1, R6] a stored setting that is none of the three is catalog damage naming the field, not OFF.
    @Example
    void i1_anUnknownStoredSettingIsDamageNamingIt() {
        assertThatThrownBy(() -> CatalogJson.changeLog("{\"changeLog\":{\"S\":\"OLD_IMAGE\"}}"))
                .isInstanceOf(StorageException.class)
                .satisfies(e -> assertThat(((StorageException) e).reason()).isEqualTo(ErrorReason.INTERNAL))
                .hasMessageContaining("change log");
        assertThatThrownBy(() -> ChangeLog.named("KEYS_ONLY"))
                .hasMessageContaining("'KEYS_ONLY'");
    }

    // [I1, C1] a backend without the log refuses a table that asks for one, by name; OFF passes everywhere.
    @Example
    void i1_aBackendWithoutTheLogRefusesItByName() {
        ChangeLog.OFF.requireOffOn("Cassandra", "t");
        assertThatThrownBy(() -> ChangeLog.NEW_IMAGE.requireOffOn("Cassandra", "orders"))
                .isInstanceOf(StorageException.class)
                .satisfies(e -> assertThat(((StorageException) e).reason()).isEqualTo(ErrorReason.UNSUPPORTED))
                .hasMessageContaining("Cassandra").hasMessageContaining("'orders'");
    }
}
