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
 * PostgreSQL, separate layout (a catalog and a data database), runs the conformance kit [K1-K8]
 * on a real PostgreSQL 16. Every engine of this class shares one pair of scratch databases.
 *
 * <p>Mutants run by hand: READ COMMITTED snapshot (TransactionStatements.SNAPSHOT_CHARACTERISTICS) -> fails
 * k2_pauseBeforeItemsSeesOneInstant on "[K2] at BEFORE_ITEMS: items with W2 have the GSI in the
 * description" and "W2 is not in the items at all". No FOR SHARE on the separate layout -> fails
 * k2_pauseAfterDefinitionSeesOneInstant on those two and on "[K2] at AFTER_DEFINITION: what resumed
 * the open ... expected: TIMEOUT but was: W2_COMMITTED".
 */
class PostgresSeparateConformanceProperties implements SnapshotConformanceKit, RequestRulesKit, ChangeLogConformanceKit {

    private static final PgDatabases DATABASES = PgDatabases.perClass("kit_separate");

    @AfterContainer
    static void dropDatabases() {
        DATABASES.dropIfCreated();
    }

    @Override
    public ConformanceFixture fixture() {
        return new KitFixture(DATABASES.created(), Layout.SEPARATE);
    }

    /** The change log kit's storage [I1, I2, I4]: this class's databases, activation at once. */
    @Override
    public dev.stillpoint.ports.in.Storage openChangeLogStorage() {
        return dev.stillpoint.adapters.postgres.PostgresStorage.open(DATABASES.created().undelayed(Layout.SEPARATE));
    }
}
