package dev.stillpoint.adapters.postgres.testing;

import dev.stillpoint.adapters.postgres.PostgresStorage;
import dev.stillpoint.domain.table.RestoreSummary;
import dev.stillpoint.ports.in.SnapshotEngine;
import dev.stillpoint.ports.in.TableOperations;
import dev.stillpoint.ports.out.PausePoint;
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
        return new KitEngine() {
            @Override
            public TableOperations tables() {
                return storage.tables();
            }

            @Override
            public SnapshotEngine snapshots() {
                return storage.snapshots();
            }

            @Override
            public void recordRestore(String accountId, String tableName, RestoreSummary summary) {
                storage.recordRestore(accountId, tableName, summary);
            }

            @Override
            public void close() {
                storage.close();
            }
        };
    }

    @Override
    public Expectations expectations() {
        return new Expectations(true, 38,
                layout == Layout.SEPARATE ? Optional.of(PausePoint.AFTER_DEFINITION) : Optional.empty());
    }
}
