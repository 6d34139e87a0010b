package dev.stillpoint.properties.machinery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.ports.in.StorageCapabilities;
import org.junit.jupiter.api.Test;

/**
 * What a backend says it can do [I1]: a capability it lacks is refused UNSUPPORTED naming the backend and
 * the reason, before any work; a backend without snapshots has no change log either (no instant to start
 * a window at), and one with snapshots has a change log only once it says so.
 */
class StorageCapabilitiesTest {

    @Test
    void i1_aFullBackendHasSnapshotsAndAChangeLogOnlyOnceItSaysSo() {
        StorageCapabilities full = StorageCapabilities.full("sqlite");
        assertThat(full.snapshots()).as("snapshots").isTrue();
        assertThatCode(full::requireSnapshots).doesNotThrowAnyException();
        assertThat(full.changeLog()).as("[I1] no change log until the backend says so").isFalse();
        assertThatThrownBy(full::requireChangeLog).isInstanceOfSatisfying(StorageException.class, e -> {
            assertThat(e.reason()).isEqualTo(ErrorReason.UNSUPPORTED);
            assertThat(e.getMessage()).contains("sqlite").contains(StorageCapabilities.NO_CHANGE_LOG_YET);
        });

        StorageCapabilities logged = full.withChangeLog();
        assertThat(logged.changeLog()).as("[I1] with its change log").isTrue();
        assertThat(logged.snapshots()).isTrue();
        assertThat(logged.backend()).isEqualTo("sqlite");
        assertThatCode(logged::requireChangeLog).doesNotThrowAnyException();
    }

    @Test
    void i1_aBackendWithoutSnapshotsRefusesBothNamingWhy() {
        StorageCapabilities none = StorageCapabilities.withoutSnapshots("cassandra", "no read fixes an instant");
        assertThat(none.snapshots()).as("no snapshots").isFalse();
        assertThat(none.changeLog()).as("no change log either").isFalse();
        assertThatThrownBy(none::requireSnapshots).isInstanceOfSatisfying(StorageException.class, e -> {
            assertThat(e.reason()).isEqualTo(ErrorReason.UNSUPPORTED);
            assertThat(e.getMessage()).contains("cassandra").contains("no read fixes an instant");
        });
        assertThatThrownBy(none::requireChangeLog).isInstanceOfSatisfying(StorageException.class, e -> {
            assertThat(e.reason()).isEqualTo(ErrorReason.UNSUPPORTED);
            assertThat(e.getMessage()).contains("cassandra")
                    .contains("no read fixes an instant here, so no window between two of them either [I1]: "
                            + "no read fixes an instant");
        });
    }
}
