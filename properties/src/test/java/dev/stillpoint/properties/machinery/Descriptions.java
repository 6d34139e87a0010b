package dev.stillpoint.properties.machinery;

import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Test data: small valid descriptions for the machinery's fakes. */
final class Descriptions {

    private Descriptions() {
    }

    static CreateTableRequest request(String account, String table) {
        return new CreateTableRequest(account, table, KeySchema.hashOnly("pk"),
                List.of(new AttributeDefinition("pk", ScalarType.S)), List.of(), List.of(), Optional.empty());
    }

    static TableDescription active(String account, String table) {
        return request(account, table).describe("id-" + table, "arn:stillpoint:" + account + ":table/" + table,
                Instant.parse("2026-01-01T00:00:00Z")).withStatus(TableStatus.ACTIVE);
    }
}
