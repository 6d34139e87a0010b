package dev.stillpoint.adapters.sqlite.engine;

import dev.stillpoint.adapters.sqlite.SqliteConfig;
import dev.stillpoint.adapters.sqlite.SqliteStorage;
import dev.stillpoint.adapters.sqlite.testing.TestDatabases;
import dev.stillpoint.properties.fixtures.SqlKitFixture;
import dev.stillpoint.properties.fixtures.StorageKitEngine;
import dev.stillpoint.properties.kit.ConformanceFixture;
import dev.stillpoint.properties.kit.Expectations;
import dev.stillpoint.properties.kit.KitEngine;
import dev.stillpoint.properties.kit.KitSettings;
import dev.stillpoint.properties.kit.RequestRulesKit;
import dev.stillpoint.properties.kit.SnapshotConformanceKit;
import java.nio.file.Path;
import java.util.Optional;

/**
 * SQLite runs the conformance kit on a file-backed database [K1-K8]: every engine of this class
 * shares one file, as a server's restarts would.
 *
 * <p>Mutants tried by hand (each made in the adapter, the kit run, the change restored):
 * <ul>
 *   <li>a fresh transaction per page (KeysetPages ending and beginning the read transaction
 *       before each page query): K1 fails on "every item at its pre-open version" and "no inserted item";</li>
 *   <li>every page read during the open (the in-memory copy path taken for files): K1 fails on
 *       "the counter advanced after the writer committed";</li>
 *   <li>{@code >=} in the keyset comparison: K5 hash-only S/N/B and S-hash-B-range fail on
 *       "no duplicates";</li>
 *   <li>the pauses moved outside the read window (the read transaction begun after
 *       AFTER_DEFINITION): K2 fails on "W2 is not in the items".</li>
 * </ul>
 * Issue 15's mutants, each made by hand, the named kit checks run, the change restored:
 * <ul>
 *   <li>keyset pages never counting bytes (the {@code bytes += json.length()} line of KeysetPages
 *       removed): s7_pagesAreBoundedByRowsAndBytes fails on "[S7] at PageBudget[rows=1000, bytes=2000]:
 *       pages are bounded by rows AND bytes (a page holds at most 1000 items and at most the byte budget
 *       plus one item)";</li>
 *   <li>rowid pages (unorderable keys) starting a fresh read transaction on every page (RowidPages
 *       rolling back and beginning the read before each page query): k1_oneInstantOnAnUnorderableTable
 *       fails on "[K1] UNORDERABLE: every item deleted after the open is present", "... no item inserted
 *       after the open is present", "... every item at its pre-open version v = 1" and "... exactly the
 *       700 items of the instant";</li>
 *   <li>DeleteTable dropping only the base relation (SqliteCatalog's drop loop over
 *       {@code List.of(loaded.base())}): all four DeleteTable checks (synchronous, scheduled, held,
 *       after a restart) fail on "[D5] DeleteTable leaves no relation (... drop, SQLite (file, WAL)):
 *       table '...' is gone but the backend's catalog still lists [... __gsi__0, ... __lsi__1 ...]".</li>
 * </ul>
 * The slot mutants (kept after the short page, after an error, by the in-memory copy) are
 * SqliteSnapshotTest's.
 */
class SqliteConformanceProperties implements SnapshotConformanceKit, RequestRulesKit,
        dev.stillpoint.properties.kit.ChangeLogConformanceKit {

    private static final Path DATABASE = TestDatabases.newFile("conformance");

    /** The change log kit's storage [I1, I2, I4]: the same file, activation at once. */
    @Override
    public dev.stillpoint.ports.in.Storage openChangeLogStorage() {
        return SqliteStorage.open(SqliteConfig.file(DATABASE).withControlPlaneDelay(java.time.Duration.ZERO));
    }

    @Override
    public ConformanceFixture fixture() {
        return new SqlKitFixture() {
            @Override
            public String backendName() {
                return "SQLite (file, WAL)";
            }

            @Override
            public KitEngine start(KitSettings settings) {
                SqliteStorage storage = SqliteStorage.open(SqliteConfig.file(DATABASE)
                        .withPageBudget(settings.pageBudget())
                        .withObserver(settings.observer())
                        .withControlPlaneDelay(settings.controlPlaneDelay())
                .withSnapshotIdleLimit(settings.snapshotIdleLimit()));
                return StorageKitEngine.of(storage, storage::recordRestore, storage::close);
            }

            @Override
            protected java.sql.Connection catalogConnection() throws java.sql.SQLException {
                return TestDatabases.openFile(DATABASE);
            }

            @Override
            protected java.sql.Connection dataConnection() throws java.sql.SQLException {
                return TestDatabases.openFile(DATABASE);
            }

            /** SQLite's own catalog: every table and index of the file. */
            @Override
            protected String relationsQuery() {
                return "SELECT type || ' ' || name FROM sqlite_master";
            }

            @Override
            public Expectations expectations() {
                return new Expectations(true, 38, Optional.empty());
            }
        };
    }
}
