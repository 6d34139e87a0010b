package dev.stillpoint.adapters.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.StreamSpecification;
import dev.stillpoint.itemjson.CatalogJson;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The catalog row's JSON columns are the shared catalog text of item-json's {@code CatalogJson} (issue
 * 28: Cassandra had its own copy, which spelled the stream view type {@code "view_type"} where every other
 * catalog writes {@code "viewType"}); rows written by that copy still load.
 */
class StoredCatalogTextTest extends OnSharedNode {

    private String stored(String account, String table) {
        return storage.cql().read("reading the stored stream setting", "SELECT stream_specification FROM "
                        + storage.config().catalogKeyspace() + ".tables WHERE account_id = ? AND table_name = ?",
                account, table).one().getString("stream_specification");
    }

    @Test
    void aStreamSettingIsWrittenInTheSharedTextAndARowInTheOldSpellingStillLoads() {
        String account = TestCassandra.account();
        String table = TestCassandra.tableName("stream");
        StreamSpecification newImage = new StreamSpecification(true, Optional.of("NEW_IMAGE"));
        storage.tables().createTable(new CreateTableRequest(account, table, KeySchema.hashOnly("pk"),
                List.of(new AttributeDefinition("pk", ScalarType.S)), List.of(), List.of(), Optional.of(newImage)));
        assertThat(stored(account, table)).as("a new row holds the shared text")
                .isEqualTo(CatalogJson.stream(Optional.of(newImage))).contains("\"viewType\"").doesNotContain("view_type");

        // The text the deleted copy wrote, put into the row by hand as an old catalog holds it.
        String old = "{\"enabled\":{\"BOOL\":true},\"view_type\":{\"S\":\"NEW_AND_OLD_IMAGES\"}}";
        storage.cql().run("writing a stream setting as the old copy did", "UPDATE " + storage.config().catalogKeyspace()
                + ".tables SET stream_specification = ? WHERE account_id = ? AND table_name = ?", old, account, table);
        assertThat(stored(account, table)).isEqualTo(old);
        assertThat(storage.tables().describeTable(account, table).streamSpecification())
                .as("the old spelling still loads, view type included")
                .contains(new StreamSpecification(true, Optional.of("NEW_AND_OLD_IMAGES")));
    }
}
