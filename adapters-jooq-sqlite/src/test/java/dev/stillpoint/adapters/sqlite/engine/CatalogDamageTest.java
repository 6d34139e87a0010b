package dev.stillpoint.adapters.sqlite.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.stillpoint.adapters.sqlite.SqliteConfig;
import dev.stillpoint.adapters.sqlite.SqliteStorage;
import dev.stillpoint.adapters.sqlite.testing.TestDatabases;
import dev.stillpoint.core.TableWaiter;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateTableRequest;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A damaged catalog entry, written by hand as an operator or a bug might, is reported as catalog
 * damage naming the table and the field, never as an item error or with a Java class name [R6].
 */
class CatalogDamageTest {

    private static final String ACCOUNT = "acct";

    @Test
    void r6_damagedFieldsAreNamedAsCatalogDamageOfTheirTable() throws Exception {
        Path file = TestDatabases.newFile("damage");
        try (SqliteStorage storage = SqliteStorage.open(SqliteConfig.file(file))) {
            for (String table : new String[] {"defs_damaged", "stream_damaged", "type_damaged", "defs_retyped"}) {
                storage.tables().createTable(CreateTableRequest.builder(ACCOUNT, table)
                        .partitionKey("pk", ScalarType.S).build());
                TableWaiter.awaitActive(storage.tables(), ACCOUNT, table, Duration.ofSeconds(30));
            }
            try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file)) {
                damage(c, "attribute_definitions_json", "this is not json", "defs_damaged");
                damage(c, "stream_spec_json", "{\"enabled\":{\"S\":\"yes\"}}", "stream_damaged");
                // Found from outside: a key type edited with sqlite3 (no CHECK holds it) read as "a stored field".
                damage(c, "partition_key_type", "X", "type_damaged");
                // Found from outside: the key's definition given a type DynamoDB has not (read as no definition
                // [D1]); GetItem and PutItem said "key attribute 'pk' has no attribute definition", a
                // ValidationException, as if the request were at fault.
                damage(c, "attribute_definitions_json", "{\"pk\":{\"S\":\"BOOL\"}}", "defs_retyped");
            }
            StorageException defs = catchThrowableOfType(
                    () -> storage.tables().describeTable(ACCOUNT, "defs_damaged"), StorageException.class);
            assertThat(defs.reason()).isEqualTo(ErrorReason.INTERNAL);
            assertThat(defs.getMessage())
                    .as("[R6] names the table, says catalog damage, names the field and shows the stored text")
                    .startsWith("table 'defs_damaged': catalog damage: the stored attribute definitions ('this is not json')")
                    .doesNotContain("item JSON").doesNotContainPattern("\\bdev\\.stillpoint\\.|\\bjava\\.");
            StorageException stream = catchThrowableOfType(
                    () -> storage.tables().describeTable(ACCOUNT, "stream_damaged"), StorageException.class);
            assertThat(stream.getMessage())
                    .as("[R6] a field of the wrong shape is catalog damage of its table, without a Java class name")
                    .startsWith("table 'stream_damaged': catalog damage: the stored stream specification")
                    .doesNotContainPattern("\\bdev\\.stillpoint\\.|\\bjava\\.|Cast");
            for (Runnable read : List.<Runnable>of(() -> storage.tables().describeTable(ACCOUNT, "type_damaged"),
                    () -> storage.tables().putItem(ACCOUNT, "type_damaged", Item.of(Map.of("pk", AttributeValue.s("a")))))) {
                StorageException type = catchThrowableOfType(read::run, StorageException.class);
                assertThat(type.reason()).isEqualTo(ErrorReason.INTERNAL);
                assertThat(type.getMessage()).as("[R6] the damaged key type is named with its stored text")
                        .startsWith("table 'type_damaged': catalog damage: the stored partition key type ('X')");
            }
            Item a = Item.of(Map.of("pk", AttributeValue.s("a")));
            for (Runnable write : List.<Runnable>of(() -> storage.tables().putItem(ACCOUNT, "defs_retyped", a),
                    () -> storage.tables().getItem(ACCOUNT, "defs_retyped",
                            dev.stillpoint.domain.request.RequestKey.of("pk", AttributeValue.s("a"))))) {
                StorageException retyped = catchThrowableOfType(write::run, StorageException.class);
                assertThat(retyped.reason()).as("[R6] the stored description's fault, not the request's")
                        .isEqualTo(ErrorReason.INTERNAL);
                assertThat(retyped.getMessage()).contains("no attribute definition for its key attribute 'pk'")
                        .contains("damaged catalog entry");
            }
        }
    }

    private static void damage(Connection c, String column, String value, String table) throws Exception {
        try (PreparedStatement s = c.prepareStatement("UPDATE sp_tables SET " + column + " = ? WHERE table_name = ?")) {
            s.setString(1, value);
            s.setString(2, table);
            assertThat(s.executeUpdate()).as("damaged row of " + table).isEqualTo(1);
        }
    }
}
