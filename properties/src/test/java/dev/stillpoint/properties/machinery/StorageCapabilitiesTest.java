package dev.stillpoint.properties.machinery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.ports.in.LoggedChange;
import dev.stillpoint.ports.in.SegmentSharing;
import dev.stillpoint.ports.in.SnapshotEngine;
import dev.stillpoint.ports.in.Storage;
import dev.stillpoint.ports.in.StorageCapabilities;
import dev.stillpoint.ports.in.TableOperations;
import dev.stillpoint.ports.in.TableRestores;
import java.util.Map;
import java.util.Optional;
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

        assertThat(full.segments()).as("[B2] no segments until the backend says how").isEqualTo(SegmentSharing.NONE);
        StorageCapabilities segmented = logged.withSegments(SegmentSharing.ONE_READ);
        assertThat(segmented.segments()).as("[B2] the sharing said").isEqualTo(SegmentSharing.ONE_READ);
        assertThat(segmented.changeLog()).as("the other capabilities kept").isTrue();
        assertThat(segmented.snapshots()).isTrue();
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

    @Test
    void i1_aStorageThatKeepsNoLogRefusesItsReadsNamingTheTableAndTheMarker() {
        for (StorageCapabilities capabilities : new StorageCapabilities[] {
            StorageCapabilities.full("fake"), StorageCapabilities.full("fake").withChangeLog()}) {
            Storage bare = bare(capabilities);
            assertThatThrownBy(() -> bare.changeLog().changesSince("acct", "Orders", "id@7"))
                    .as("[I1] the default of a storage that implements no log, whatever it claims")
                    .isInstanceOfSatisfying(StorageException.class, e -> {
                        assertThat(e.reason()).isEqualTo(ErrorReason.UNSUPPORTED);
                        assertThat(e.getMessage()).contains("fake");
                        if (capabilities.changeLog()) {
                            assertThat(e.getMessage()).contains("'Orders'").contains("'id@7'");
                        } else {
                            assertThat(e.getMessage()).contains(StorageCapabilities.NO_CHANGE_LOG_YET);
                        }
                    });
        }

    }

    @Test
    void e5_aStorageWithoutAPollerHasNoStartupRecoveryToWaitFor() throws InterruptedException {
        assertThat(bare(StorageCapabilities.full("fake")).awaitStartupRecovery(java.time.Duration.ZERO))
                .as("[E5] the port's default: nothing to wait for").isTrue();
    }

    /** A storage implementing only what the port requires: every default is the port's own. */
    private static Storage bare(StorageCapabilities capabilities) {
        return new Storage() {
            @Override
            public TableOperations tables() {
                throw new AssertionError("not asked");
            }

            @Override
            public SnapshotEngine snapshots() {
                throw new AssertionError("not asked");
            }

            @Override
            public StorageCapabilities capabilities() {
                return capabilities;
            }

            @Override
            public TableRestores restores() {
                throw new AssertionError("not asked");
            }

            @Override
            public void close() {
            }
        };
    }

    @Test
    void i2_aChangeWithoutANewImageIsATombstone() {
        Item keys = Item.of(Map.of("pk", AttributeValue.s("a")));
        Item item = Item.of(Map.of("pk", AttributeValue.s("a"), "v", AttributeValue.s("1")));
        assertThat(new LoggedChange(keys, Optional.empty(), Optional.of(item)).tombstone()).as("[I2] deleted").isTrue();
        assertThat(new LoggedChange(keys, Optional.of(item), Optional.empty()).tombstone()).as("[I2] put").isFalse();
    }
}
