package dev.stillpoint.adapters.postgres;

import static dev.stillpoint.adapters.postgres.testing.Tables.ACCOUNT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.adapters.postgres.testing.Layout;
import dev.stillpoint.adapters.postgres.testing.PgDatabases;
import dev.stillpoint.adapters.postgres.testing.Tables;
import dev.stillpoint.core.TableWaiter;
import dev.stillpoint.properties.kit.IndexCountChecks;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Each secondary index's ItemCount and IndexSizeBytes are recounted with the table's on both layouts (they
 * were a constant 0, found from outside: a restored 120,000-item table described its GSI with ItemCount 0),
 * and recording them advances no catalog_version, so a recount throws away no engine's kept definition.
 */
class PostgresIndexCountTest {

    @RegisterExtension
    static final PgDatabases databases = PgDatabases.perClass("indexcounts");

    @ParameterizedTest
    @EnumSource(Layout.class)
    void eachIndexsCountsAreRecountedWithoutAdvancingTheCatalogVersion(Layout layout) throws Exception {
        String name = Tables.uniqueName("ic");
        try (PostgresStorage storage = PostgresStorage.open(databases.undelayed(layout))) {
            storage.tables().createTable(IndexCountChecks.table(ACCOUNT, name));
            TableWaiter.awaitActive(storage.tables(), ACCOUNT, name, Duration.ofSeconds(30));
            IndexCountChecks.write(storage.tables(), ACCOUNT, name);
        }
        long versionBefore = catalogVersion(layout, name);
        try (PostgresStorage restarted = PostgresStorage.open(databases.undelayed(layout))) {
            IndexCountChecks.requireCounted(IndexCountChecks.awaitCounted(
                    () -> restarted.tables().describeTable(ACCOUNT, name), Duration.ofSeconds(30)));
        }
        assertThat(catalogVersion(layout, name)).as("catalog_version after a recount that recorded new index counts")
                .isEqualTo(versionBefore);
    }

    private static long catalogVersion(Layout layout, String name) throws Exception {
        try (Connection c = databases.catalogDatabase(layout).connect();
             PreparedStatement s = c.prepareStatement("SELECT catalog_version FROM sp_tables WHERE table_name = ?")) {
            s.setString(1, name);
            try (ResultSet r = s.executeQuery()) {
                assertThat(r.next()).as("the table's catalog row").isTrue();
                return r.getLong(1);
            }
        }
    }
}
