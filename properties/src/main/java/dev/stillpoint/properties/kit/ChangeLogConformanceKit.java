package dev.stillpoint.properties.kit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static dev.stillpoint.properties.kit.ChangeLogKitSteps.kitKey;
import static dev.stillpoint.properties.kit.ChangeLogKitSteps.kitRefusesMarker;
import static dev.stillpoint.properties.kit.ChangeLogKitSteps.kitRequest;
import static dev.stillpoint.properties.kit.ChangeLogKitSteps.kitSnapshot;
import static dev.stillpoint.properties.kit.ChangeLogKitSteps.kitTable;
import static dev.stillpoint.properties.kit.ChangeLogKitSteps.kitWindow;
import static dev.stillpoint.properties.kit.ChangeLogKitSteps.kitWrite;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.table.ChangeLog;
import dev.stillpoint.ports.in.ChangeSink;
import dev.stillpoint.ports.in.ChangeWindow;
import dev.stillpoint.ports.in.LoggedChange;
import dev.stillpoint.ports.in.Storage;
import dev.stillpoint.ports.in.TableChanges;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.UUID;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * The change log's rules [I1, I2, I4] as a kit every backend runs on its live database. A backend that
 * claims the capability ({@code StorageCapabilities.changeLog()}) must keep the guarantee: for random
 * interleavings of puts, overwrites and deletes before and inside a window (one key many times), the full
 * snapshot at A plus the changes of (A, B] is the full snapshot at B, item for item; an empty window is
 * empty; a marker older than the log is refused naming it. A backend that does not claim it must refuse a
 * table asking for a log at CreateTable, UNSUPPORTED, naming itself [C1]. The writes come through the
 * public table operations, as an outside writer's would.
 *
 * <pre>{@code
 * class SqliteConformanceProperties implements ChangeLogConformanceKit {
 *     public Storage openChangeLogStorage() { return SqliteStorage.open(...); }
 * }
 * }</pre>
 */
public interface ChangeLogConformanceKit {

    /** The account of the kit's tables. */
    String KIT_ACCOUNT = "000000000031";

    /**
     * A storage opened on the live database, read-write, its control-plane delay short enough that a new
     * table is ACTIVE within seconds. The kit closes it.
     *
     * @return a new storage
     */
    Storage openChangeLogStorage();

    // [I2] full(A) + changes(A, B) == full(B) item for item. Writes are numbers: n >= 0 puts key n % 8
    // with value "v<n>", n < 0 deletes key -n; so keys repeat, within and across the two phases.
    @Property(tries = 25)
    default void i2_kit_fullAtAPlusTheWindowIsFullAtB(
            @ForAll @Size(max = 30) List<@IntRange(min = -7, max = 30) Integer> before,
            @ForAll @Size(max = 30) List<@IntRange(min = -7, max = 30) Integer> inside,
            @ForAll boolean oldImages) {
        try (Storage storage = openChangeLogStorage()) {
            if (!storage.capabilities().changeLog()) {
                return; // the refusal is i1_kit_aBackendWithoutTheLogRefusesIt's to check
            }
            String table = kitTable(storage, oldImages ? ChangeLog.NEW_AND_OLD_IMAGES : ChangeLog.NEW_IMAGE);
            kitWrite(storage, table, before);
            TableChanges changes = kitWindow(storage, table, inside, oldImages, "");
            // A marker is shared only by snapshots that saw the same commits [L5], not always by two such
            // snapshots (PostgreSQL's separate layout takes an xid at every open): so the window's end is
            // checked as the start of the next window, empty with no write between.
            assertThat(storage.changeLog().changesSince(KIT_ACCOUNT, table, changes.until().marker()).changes())
                    .as("[I2] the window ends where a window from its end marker starts").isEmpty();
            storage.tables().deleteTable(KIT_ACCOUNT, table);
        }
    }

    // [I1, I4] a log switched on after the table was written starts at the switch: a marker from before it
    // is refused naming it (the writes before the switch are not kept), and from a marker after it
    // full(A) + changes(A, B) == full(B).
    @Property(tries = 10)
    default void i1_kit_aLogSwitchedOnLaterStartsAtTheSwitch(
            @ForAll @Size(max = 20) List<@IntRange(min = -7, max = 30) Integer> before,
            @ForAll @Size(max = 20) List<@IntRange(min = -7, max = 30) Integer> inside,
            @ForAll boolean oldImages) {
        try (Storage storage = openChangeLogStorage()) {
            if (!storage.capabilities().changeLog()) {
                return;
            }
            String table = kitTable(storage, ChangeLog.OFF);
            kitWrite(storage, table, before);
            String beforeSwitch = kitSnapshot(storage, table, new HashMap<>());
            ChangeLog setting = oldImages ? ChangeLog.NEW_AND_OLD_IMAGES : ChangeLog.NEW_IMAGE;
            assertThat(storage.tables().updateChangeLog(KIT_ACCOUNT, table, setting).changeLog())
                    .as("[I1] the switch answers the new setting").isEqualTo(setting);
            assertThat(storage.tables().describeTable(KIT_ACCOUNT, table).changeLog()).as("[I1] described")
                    .isEqualTo(setting);
            kitRefusesMarker(storage, table, beforeSwitch, "[I4] a marker from before the log was switched on");
            kitWindow(storage, table, inside, oldImages, " after the switch");
            storage.tables().deleteTable(KIT_ACCOUNT, table);
        }
    }

    // [I1, I4] asking for the setting the table has keeps the log and its markers; a view change while on is
    // refused naming both views; switched off, no window is answered; switched on again, the log starts
    // afresh and a marker of the first log is refused.
    @Example
    default void i1_kit_aLogSwitchedOffAndOnAgainStartsAfresh() {
        try (Storage storage = openChangeLogStorage()) {
            if (!storage.capabilities().changeLog()) {
                return;
            }
            String table = kitTable(storage, ChangeLog.NEW_AND_OLD_IMAGES);
            kitWrite(storage, table, List.of(1, 2, 3));
            String first = kitSnapshot(storage, table, new HashMap<>());
            kitWrite(storage, table, List.of(4));
            assertThat(storage.tables().updateChangeLog(KIT_ACCOUNT, table, ChangeLog.NEW_AND_OLD_IMAGES).changeLog())
                    .as("[I1] the same setting again").isEqualTo(ChangeLog.NEW_AND_OLD_IMAGES);
            assertThat(storage.changeLog().changesSince(KIT_ACCOUNT, table, first).changes())
                    .as("[I1] the same setting again keeps the log: the write after the first marker")
                    .extracting(c -> kitKey(c.keys())).containsExactly("k4");
            assertThatThrownBy(() -> storage.tables().updateChangeLog(KIT_ACCOUNT, table, ChangeLog.NEW_IMAGE))
                    .as("[I1] a view change while on")
                    .isInstanceOf(StorageException.class)
                    .hasMessageContaining("NEW_AND_OLD_IMAGES").hasMessageContaining("NEW_IMAGE while")
                    .satisfies(e -> assertThat(((StorageException) e).reason()).isEqualTo(ErrorReason.VALIDATION));
            assertThat(storage.tables().describeTable(KIT_ACCOUNT, table).changeLog()).as("[I1] a refused switch changes nothing")
                    .isEqualTo(ChangeLog.NEW_AND_OLD_IMAGES);
            assertThat(storage.tables().updateChangeLog(KIT_ACCOUNT, table, ChangeLog.OFF).changeLog()).isEqualTo(ChangeLog.OFF);
            kitRefusesMarker(storage, table, first, "[I1] a table whose log is off");
            kitWrite(storage, table, List.of(5, -2));
            storage.tables().updateChangeLog(KIT_ACCOUNT, table, ChangeLog.NEW_IMAGE);
            kitRefusesMarker(storage, table, first, "[I4] a marker of the log before it was switched off");
            TableChanges changes = kitWindow(storage, table, List.of(6, -1, 11), false, " in the new log");
            assertThat(changes.changes()).extracting(c -> kitKey(c.keys())).as("[I2] only the new log's window")
                    .containsExactlyInAnyOrder("k1", "k3", "k6");
            storage.tables().deleteTable(KIT_ACCOUNT, table);
        }
    }

    // [I2] a window with no writes is empty; [I4] a marker older than the log is refused naming it.
    @Example
    default void i4_kit_anEmptyWindowIsEmptyAndAStaleMarkerIsRefused() {
        try (Storage storage = openChangeLogStorage()) {
            if (!storage.capabilities().changeLog()) {
                return;
            }
            String table = kitTable(storage, ChangeLog.NEW_IMAGE);
            kitWrite(storage, table, List.of(1, 2, -1));
            String marker = kitSnapshot(storage, table, new HashMap<>());
            TableChanges empty = storage.changeLog().changesSince(KIT_ACCOUNT, table, marker);
            assertThat(empty.changes()).as("[I2] no writes, no changes").isEmpty();
            assertThat(empty.since().marker()).as("[I2] the window names its start").isEqualTo(marker);
            String other = kitTable(storage, ChangeLog.NEW_IMAGE);
            String foreign = kitSnapshot(storage, other, new HashMap<>());
            assertThatThrownBy(() -> storage.changeLog().changesSince(KIT_ACCOUNT, table, foreign))
                    .as("[I4] another table's marker")
                    .isInstanceOf(StorageException.class)
                    .hasMessageContaining("'" + foreign + "'")
                    .satisfies(e -> assertThat(((StorageException) e).reason()).isEqualTo(ErrorReason.VALIDATION));
            storage.tables().deleteTable(KIT_ACCOUNT, table);
            storage.tables().deleteTable(KIT_ACCOUNT, other);
        }
    }

    // [I2, S7] a streamed window tells its window first, once, then each key's change once; a sink that fails
    // ends the read with its own exception, and the read's transaction and connection are given back on that
    // path too: many failed reads in a row leave every later read and write working.
    @Example
    default void i2_kit_aStreamedWindowStartsWithItsWindowAndEndsWhereItsSinkFails() {
        try (Storage storage = openChangeLogStorage()) {
            if (!storage.capabilities().changeLog()) {
                return;
            }
            String table = kitTable(storage, ChangeLog.NEW_IMAGE);
            String marker = kitSnapshot(storage, table, new HashMap<>());
            kitWrite(storage, table, List.of(0, 1, 2, 3, 4, 5, 6, 7, 1, 2));
            List<String> events = new ArrayList<>();
            storage.changeLog().streamChanges(KIT_ACCOUNT, table, marker, new ChangeSink() {
                @Override
                public void begin(ChangeWindow window) {
                    events.add("window " + window.since().marker());
                }

                @Override
                public void change(LoggedChange change) {
                    events.add(kitKey(change.keys()));
                }
            });
            assertThat(events.get(0)).as("[I2] the window first").isEqualTo("window " + marker);
            assertThat(events.subList(1, events.size())).as("[I2] each key changed once")
                    .containsExactlyInAnyOrder("k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7");
            StorageException full = new StorageException(ErrorReason.VALIDATION, "the kit's sink is full");
            for (int i = 0; i < 40; i++) {
                int[] seen = {0};
                assertThatThrownBy(() -> storage.changeLog().streamChanges(KIT_ACCOUNT, table, marker, new ChangeSink() {
                    @Override
                    public void begin(ChangeWindow window) {
                    }

                    @Override
                    public void change(LoggedChange change) {
                        if (++seen[0] == 3) {
                            throw full;
                        }
                    }
                })).as("[S7] the sink's failure, unchanged").isSameAs(full);
            }
            kitWrite(storage, table, List.of(9));
            assertThat(storage.changeLog().changesSince(KIT_ACCOUNT, table, marker).changes())
                    .as("[S7] after 40 failed reads, reads and writes still work").hasSize(8);
            storage.tables().deleteTable(KIT_ACCOUNT, table);
        }
    }

    // [I1, C1] a backend that does not claim the log refuses a table asking for one, UNSUPPORTED, and
    // creates nothing; its change log reads are refused the same way.
    @Example
    default void i1_kit_aBackendWithoutTheLogRefusesIt() {
        try (Storage storage = openChangeLogStorage()) {
            if (storage.capabilities().changeLog()) {
                return;
            }
            String name = "kit_log_" + UUID.randomUUID().toString().substring(0, 8);
            assertThatThrownBy(() -> storage.tables().createTable(kitRequest(name, ChangeLog.NEW_IMAGE)))
                    .isInstanceOf(StorageException.class)
                    .satisfies(e -> assertThat(((StorageException) e).reason()).isEqualTo(ErrorReason.UNSUPPORTED));
            assertThat(storage.tables().listTables(KIT_ACCOUNT)).doesNotContain(name);
            assertThatThrownBy(() -> storage.changeLog().changesSince(KIT_ACCOUNT, name, "x@1"))
                    .isInstanceOf(StorageException.class)
                    .satisfies(e -> assertThat(((StorageException) e).reason()).isEqualTo(ErrorReason.UNSUPPORTED));
            String table = kitTable(storage, ChangeLog.OFF);
            assertThatThrownBy(() -> storage.tables().updateChangeLog(KIT_ACCOUNT, table, ChangeLog.NEW_IMAGE))
                    .as("[I1] a log switched on later")
                    .isInstanceOf(StorageException.class)
                    .hasMessageContaining("'" + table + "'")
                    .satisfies(e -> assertThat(((StorageException) e).reason()).isEqualTo(ErrorReason.UNSUPPORTED));
            assertThat(storage.tables().updateChangeLog(KIT_ACCOUNT, table, ChangeLog.OFF).changeLog())
                    .as("[I1] OFF, the setting it has, is no change").isEqualTo(ChangeLog.OFF);
            assertThat(storage.tables().describeTable(KIT_ACCOUNT, table).changeLog()).isEqualTo(ChangeLog.OFF);
            storage.tables().deleteTable(KIT_ACCOUNT, table);
        }
    }
}
