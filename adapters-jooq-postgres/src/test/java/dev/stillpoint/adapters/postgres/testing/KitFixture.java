package dev.stillpoint.adapters.postgres.testing;

import dev.stillpoint.adapters.postgres.PostgresStorage;
import dev.stillpoint.ports.out.PausePoint;
import dev.stillpoint.properties.fixtures.SqlKitFixture;
import dev.stillpoint.properties.fixtures.StorageKitEngine;
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
public final class KitFixture extends SqlKitFixture {

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
                .withControlPlaneDelay(settings.controlPlaneDelay())
                .withSnapshotIdleLimit(settings.snapshotIdleLimit()));
        return StorageKitEngine.of(storage, storage::recordRestore, storage::close);
    }

    @Override
    protected java.sql.Connection catalogConnection() throws java.sql.SQLException {
        return databases.catalogDatabase(layout).connect();
    }

    @Override
    protected java.sql.Connection dataConnection() throws java.sql.SQLException {
        return databases.dataSession(layout);
    }

    /** PostgreSQL's own catalog of the data database: every table, partitioned table and index outside the system schemas. */
    @Override
    protected String relationsQuery() {
        return "SELECT n.nspname || '.' || c.relname FROM pg_class c "
                + "JOIN pg_namespace n ON n.oid = c.relnamespace "
                + "WHERE c.relkind IN ('r', 'p', 'i', 'I') "
                + "AND n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')";
    }

    @Override
    public Expectations expectations() {
        return new Expectations(true, 38,
                layout == Layout.SEPARATE ? Optional.of(PausePoint.AFTER_DEFINITION) : Optional.empty());
    }
}
