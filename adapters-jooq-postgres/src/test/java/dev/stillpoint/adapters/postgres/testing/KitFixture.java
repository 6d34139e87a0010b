package dev.stillpoint.adapters.postgres.testing;

import dev.stillpoint.adapters.postgres.PostgresStorage;
import dev.stillpoint.ports.out.PausePoint;
import dev.stillpoint.properties.fixtures.SqlCatalogAccess;
import dev.stillpoint.properties.fixtures.StorageKitEngine;
import dev.stillpoint.properties.kit.ConformanceFixture;
import dev.stillpoint.properties.kit.Expectations;
import dev.stillpoint.properties.kit.KitEngine;
import dev.stillpoint.properties.kit.KitSettings;
import java.util.Optional;

/**
 * The conformance kit's fixture for one layout: every engine it starts shares that layout's
 * databases. PostgreSQL declares key-ordered streams and 38 digits of N; on the separate layout an
 * UpdateTable waits for an open held after its definition read (the row is FOR SHARE until the data
 * transaction is pinned) [P2], on the shared layout it never waits (no row lock) [P1].
 */
public final class KitFixture implements ConformanceFixture {

    private final PgDatabases databases;
    private final Layout layout;

    public KitFixture(PgDatabases databases, Layout layout) {
        this.databases = databases;
        this.layout = layout;
    }

    @Override
    public String backendName() {
        return "PostgreSQL (" + layout.name().toLowerCase(java.util.Locale.ROOT) + " layout)";
    }

    @Override
    public KitEngine start(KitSettings settings) {
        PostgresStorage storage = PostgresStorage.open(databases.config(layout)
                .withPageBudget(settings.pageBudget())
                .withObserver(settings.observer())
                .withControlPlaneDelay(settings.controlPlaneDelay()));
        return StorageKitEngine.of(storage, storage::recordRestore, storage::close);
    }

    /** PostgreSQL's own catalog of the data database: every table, partitioned table and index outside the system schemas. */
    @Override
    public java.util.Set<String> relationsInCatalog() {
        try (java.sql.Connection c = databases.dataSession(layout)) {
            return SqlCatalogAccess.names(c, "SELECT n.nspname || '.' || c.relname FROM pg_class c "
                    + "JOIN pg_namespace n ON n.oid = c.relnamespace "
                    + "WHERE c.relkind IN ('r', 'p', 'i', 'I') "
                    + "AND n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')");
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException("connecting to the data database", e);
        }
    }

    @Override
    public void writeAttributeDefinitions(String accountId, String tableName,
                java.util.List<dev.stillpoint.domain.key.AttributeDefinition> definitions) {
        try (java.sql.Connection c = databases.catalogDatabase(layout).connect()) {
            SqlCatalogAccess.writeAttributeDefinitions(c, accountId, tableName, definitions);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException("connecting to the catalog database", e);
        }
    }

    /** The index's relation named by the catalog database, its entries counted in the data database. */
    @Override
    public java.util.OptionalLong indexEntries(String accountId, String tableName, String indexName) {
        String relation;
        try (java.sql.Connection c = databases.catalogDatabase(layout).connect();
             java.sql.PreparedStatement q = c.prepareStatement("SELECT i.relation_name FROM sp_indexes i "
                     + "JOIN sp_tables t ON t.table_id = i.table_id "
                     + "WHERE t.account_id = ? AND t.table_name = ? AND i.index_name = ?")) {
            q.setString(1, accountId);
            q.setString(2, tableName);
            q.setString(3, indexName);
            try (java.sql.ResultSet rs = q.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalStateException("no index " + indexName + " of table " + tableName + " in the catalog");
                }
                relation = rs.getString(1);
            }
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException("reading the relation of index " + indexName, e);
        }
        try (java.sql.Connection c = databases.dataSession(layout);
             java.sql.Statement st = c.createStatement();
             java.sql.ResultSet rs = st.executeQuery("SELECT count(*) FROM \"" + relation.replace("\"", "\"\"") + "\"")) {
            rs.next();
            return java.util.OptionalLong.of(rs.getLong(1));
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException("counting the entries of " + relation, e);
        }
    }

    @Override
    public Expectations expectations() {
        return new Expectations(true, 38,
                layout == Layout.SEPARATE ? Optional.of(PausePoint.AFTER_DEFINITION) : Optional.empty());
    }
}
