package dev.stillpoint.properties.machinery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.stillpoint.core.CoreSettings;
import dev.stillpoint.core.StorageCore;
import dev.stillpoint.core.StorageFacade;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.table.RestoreSummary;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.in.StorageCapabilities;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * What the facade the SQLite, PostgreSQL and MongoDB facades extend answers before it reaches the core: a
 * change log trim asked of a backend that keeps no change log (MongoDB's capabilities) is refused UNSUPPORTED
 * naming the backend [I1], never an IllegalStateException of a core that was given no trim; a read-only
 * opening refuses it too [L4]; and closing stops the core before the backend's connections go.
 */
class StorageFacadeTest {

    /** A facade over a core that is never assembled: every answer here comes before the core is asked. */
    private static final class Facade extends StorageFacade {
        private final boolean readOnly;

        Facade(StorageCapabilities capabilities, boolean readOnly, Runnable closeConnections) {
            super(capabilities, new StorageCore(CoreSettings.DEFAULT, "storage-facade-test"), closeConnections);
            this.readOnly = readOnly;
        }

        @Override
        public boolean readOnly() {
            return readOnly;
        }

        @Override
        protected void writeRestoreRecord(TableDescription table, RestoreSummary summary) {
            throw new AssertionError("not asked here");
        }
    }

    @Test
    void i1_aTrimOfABackendWithoutAChangeLogIsRefusedNamingTheBackend() {
        AtomicInteger closed = new AtomicInteger();
        try (Facade mongo = new Facade(StorageCapabilities.full("MongoDB"), false, closed::incrementAndGet)) {
            Throwable refused = catchThrowable(mongo::trimChangeLogs);
            assertThat(refused).isInstanceOfSatisfying(StorageException.class, e -> {
                assertThat(e.reason()).isEqualTo(ErrorReason.UNSUPPORTED);
                assertThat(e.getMessage()).contains("MongoDB").contains("[I1]");
            });
        }
        assertThat(closed).as("closing the facade closes the backend's connections once").hasValue(1);
    }

    @Test
    void l4_aReadOnlyOpeningOfABackendWithAChangeLogRefusesTheTrim() {
        try (Facade readOnly = new Facade(StorageCapabilities.full("SQLite").withChangeLog(), true, () -> { })) {
            assertThat(catchThrowable(readOnly::trimChangeLogs)).isInstanceOfSatisfying(StorageException.class, e -> {
                assertThat(e.reason()).isEqualTo(ErrorReason.UNSUPPORTED);
                assertThat(e.getMessage()).contains("SQLite").contains("read-only");
            });
        }
    }
}
