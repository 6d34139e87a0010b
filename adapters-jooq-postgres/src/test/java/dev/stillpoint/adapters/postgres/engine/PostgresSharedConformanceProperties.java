package dev.stillpoint.adapters.postgres.engine;

import dev.stillpoint.adapters.postgres.testing.KitFixture;
import dev.stillpoint.adapters.postgres.testing.Layout;
import dev.stillpoint.adapters.postgres.testing.PgDatabases;
import dev.stillpoint.properties.kit.ChangeLogConformanceKit;
import dev.stillpoint.properties.kit.ConformanceFixture;
import dev.stillpoint.properties.kit.RequestRulesKit;
import dev.stillpoint.properties.kit.SnapshotConformanceKit;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * PostgreSQL, shared layout (catalog and data in one database), runs the conformance kit [K1-K8]
 * on a real PostgreSQL 16. Every engine of this class shares one scratch database.
 *
 * <p>Mutants run by hand: READ COMMITTED snapshot (TransactionStatements.SNAPSHOT_CHARACTERISTICS) -> fails
 * k2_pauseBeforeItemsSeesOneInstant and k2_pauseAfterDefinitionSeesOneInstant on "[K2] ... items
 * with W2 have the GSI in the description" and "[K2] ... W2 is not in the items at all".
 */
class PostgresSharedConformanceProperties implements SnapshotConformanceKit, RequestRulesKit, ChangeLogConformanceKit {

    private static final PgDatabases DATABASES = PgDatabases.perClass("kit_shared");

    @AfterContainer
    static void dropDatabases() {
        DATABASES.dropIfCreated();
    }

    @Override
    public ConformanceFixture fixture() {
        return new KitFixture(DATABASES.created(), Layout.SHARED);
    }

    /** The change log kit's storage [I1, I2, I4]: this class's databases, activation at once. */
    @Override
    public dev.stillpoint.ports.in.Storage openChangeLogStorage() {
        return dev.stillpoint.adapters.postgres.PostgresStorage.open(DATABASES.created().undelayed(Layout.SHARED));
    }
}
