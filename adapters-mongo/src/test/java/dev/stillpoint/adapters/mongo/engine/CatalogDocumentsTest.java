package dev.stillpoint.adapters.mongo.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.lifecycle.TableState;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.IndexStatus;
import dev.stillpoint.domain.table.LocalSecondaryIndex;
import dev.stillpoint.domain.table.Projection;
import dev.stillpoint.domain.table.RestoreSummary;
import dev.stillpoint.domain.table.StreamSpecification;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.domain.table.TimeToLive;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.bson.BsonDocument;
import org.bson.BsonString;
import org.junit.jupiter.api.Test;

/**
 * The catalog documents read back as the description that was written [S2]: the snapshot and
 * DescribeTable both read through this one mapping, so what a snapshot reports is what DescribeTable does.
 */
class CatalogDocumentsTest {

    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00.123Z");

    @Test
    void s2_aNewTableReadsBackAsItsDescription() {
        CreateTableRequest request = request();
        TableDescription written = request.describe("0123456789abcdef0123456789abcdef", "arn:t", NOW);
        BsonDocument table = CatalogDocuments.newTable(request, written, NOW.plusMillis(250), 2);
        List<BsonDocument> indexes = List.of(
                CatalogDocuments.newIndex(written.tableId(), "byG", true, 0, new KeySchema("g", Optional.of("sk")),
                        Projection.include(List.of("a", "b")), IndexStatus.ACTIVE, false),
                CatalogDocuments.newIndex(written.tableId(), "byL", false, 1, new KeySchema("pk", Optional.of("l")),
                        Projection.keysOnly(), IndexStatus.ACTIVE, false));

        CatalogDocuments.Loaded loaded = CatalogDocuments.load(table, indexes);

        assertThat(loaded.record().description()).isEqualTo(written);
        assertThat(loaded.record().description().timeToLive()).as("[E4] a restore's time to live is kept")
                .contains(new TimeToLive("expiresAt", true));
        assertThat(loaded.record().state()).isEqualTo(new TableState.Creating(NOW.plusMillis(250)));
        assertThat(loaded.collections()).containsExactly("d_0123456789abcdef0123456789abcdef",
                "d_0123456789abcdef0123456789abcdef__gsi__0", "d_0123456789abcdef0123456789abcdef__lsi__1");
        assertThat(table.getString("_id").getValue()).as("one document per account and name")
                .isEqualTo("13:S000000000000,7:Sorders,");
    }

    @Test
    void s2_aRestoreSummaryAndStatusReadBack() {
        CreateTableRequest request = request();
        TableDescription written = request.describe("abc", "arn:t", NOW);
        RestoreSummary summary = new RestoreSummary(Optional.of("arn:backup"), Optional.empty(), NOW, true);
        BsonDocument table = CatalogDocuments.newTable(request, written, NOW, 0)
                .append("restore", CatalogDocuments.restore(summary))
                .append("status", new BsonString(TableStatus.ACTIVE.name()));

        TableDescription read = CatalogDocuments.load(table, List.of()).record().description();

        assertThat(read.restoreSummary()).contains(summary);
        assertThat(read.status()).isEqualTo(TableStatus.ACTIVE);
    }

    // E4, E5: a CREATING document whose restore is in progress is RESTORING, its due time the restore's
    // stamp (never activated by the delay); once the restore is no longer in progress it is plain CREATING.
    @Test
    void e4_aDocumentWhoseRestoreIsInProgressIsRestoring() {
        CreateTableRequest request = request();
        TableDescription written = request.describe("abc", "arn:t", NOW);
        RestoreSummary running = new RestoreSummary(Optional.empty(), Optional.of("arn:src"), NOW, true);
        BsonDocument table = CatalogDocuments.newTable(request, written, NOW.plusSeconds(60), 0)
                .append("restore", CatalogDocuments.restore(running));

        CatalogDocuments.Loaded loaded = CatalogDocuments.load(table, List.of());

        assertThat(loaded.record().state()).isEqualTo(new TableState.Restoring(NOW.plusSeconds(60)));
        assertThat(loaded.record().description().status()).isEqualTo(TableStatus.CREATING);
        assertThat(loaded.record().description().restoreSummary()).contains(running);
        RestoreSummary done = new RestoreSummary(Optional.empty(), Optional.of("arn:src"), NOW, false);
        table.put("restore", CatalogDocuments.restore(done));
        assertThat(CatalogDocuments.load(table, List.of()).record().state())
                .isEqualTo(new TableState.Creating(NOW.plusSeconds(60)));
    }

    @Test
    void s2_aDamagedDocumentIsAnInternalErrorNamingIt() {
        CreateTableRequest request = request();
        BsonDocument table = CatalogDocuments.newTable(request, request.describe("abc", "arn:t", NOW), NOW, 0);
        table.put("status", new BsonString("SLEEPING"));
        assertThatThrownBy(() -> CatalogDocuments.load(table, List.of()))
                .isInstanceOfSatisfying(StorageException.class, e -> {
                    assertThat(e.reason()).isEqualTo(ErrorReason.INTERNAL);
                    assertThat(e.getMessage()).contains("sp_tables").contains("7:Sorders,");
                });
    }

    private static CreateTableRequest request() {
        return new CreateTableRequest("000000000000", "orders", new KeySchema("pk", Optional.of("sk")),
                List.of(new AttributeDefinition("pk", ScalarType.S), new AttributeDefinition("sk", ScalarType.N),
                        new AttributeDefinition("g", ScalarType.B), new AttributeDefinition("l", ScalarType.S)),
                List.of(new GlobalSecondaryIndex("byG", new KeySchema("g", Optional.of("sk")),
                        Projection.include(List.of("a", "b")), IndexStatus.ACTIVE, false, 0, 0)),
                List.of(new LocalSecondaryIndex("byL", new KeySchema("pk", Optional.of("l")), Projection.keysOnly(), 0, 0)),
                Optional.of(new StreamSpecification(true, Optional.of("NEW_IMAGE"))),
                Optional.of(new TimeToLive("expiresAt", true)));
    }
}
