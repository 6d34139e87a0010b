package dev.stillpoint.properties.kit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.request.RequestKey;
import dev.stillpoint.domain.table.ChangeLog;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.in.LoggedChange;
import dev.stillpoint.ports.in.Storage;
import dev.stillpoint.ports.in.TableChanges;
import dev.stillpoint.ports.in.TableSnapshot;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** The steps the change log kit's rules are made of [I1, I2, I4]: tables, writes, snapshots, windows and checks. */
final class ChangeLogKitSteps {

    private static final String KIT_ACCOUNT = ChangeLogConformanceKit.KIT_ACCOUNT;

    private ChangeLogKitSteps() {
    }

    /**
     * Takes snapshot A, makes the writes {@code inside}, reads the window since A and takes snapshot B:
     * checks full(A) + changes(A, B) == full(B) [I2] and returns the window.
     */
    static TableChanges kitWindow(Storage storage, String table, List<Integer> inside, boolean oldImages,
                                          String where) {
        Map<String, Item> a = new HashMap<>();
        String markerA = kitSnapshot(storage, table, a);
        kitWrite(storage, table, inside);
        TableChanges changes = storage.changeLog().changesSince(KIT_ACCOUNT, table, markerA);
        Map<String, Item> b = new HashMap<>();
        kitSnapshot(storage, table, b);
        assertThat(kitReplay(a, changes, oldImages)).as("[I2] full(A) + changes(A, B) == full(B)" + where).isEqualTo(b);
        return changes;
    }

    static void kitRefusesMarker(Storage storage, String table, String marker, String what) {
        assertThatThrownBy(() -> storage.changeLog().changesSince(KIT_ACCOUNT, table, marker))
                .as(what)
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("'" + marker + "'")
                .satisfies(e -> assertThat(((StorageException) e).reason()).isEqualTo(ErrorReason.VALIDATION));
    }

    /** {@code a} with the window's changes applied, checking each old image against {@code a} where kept. */
    static Map<String, Item> kitReplay(Map<String, Item> a, TableChanges changes, boolean oldImages) {
        Map<String, Item> replayed = new HashMap<>(a);
        for (LoggedChange c : changes.changes()) {
            String key = kitKey(c.keys());
            if (oldImages) {
                assertThat(c.oldImage()).as("[I1] the old image of %s is its item at A", key)
                        .isEqualTo(Optional.ofNullable(a.get(key)));
            }
            if (c.tombstone()) {
                replayed.remove(key);
            } else {
                replayed.put(key, c.newImage().orElseThrow());
            }
        }
        return replayed;
    }

    static CreateTableRequest kitRequest(String name, ChangeLog setting) {
        return CreateTableRequest.builder(KIT_ACCOUNT, name).partitionKey("pk", ScalarType.S)
                .sortKey("sk", ScalarType.N).changeLog(setting).build();
    }

    static String kitTable(Storage storage, ChangeLog setting) {
        String name = "kit_log_" + UUID.randomUUID().toString().substring(0, 8);
        storage.tables().createTable(kitRequest(name, setting));
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (storage.tables().describeTable(KIT_ACCOUNT, name).status() != TableStatus.ACTIVE) {
            assertThat(System.nanoTime()).as("table %s ACTIVE within 30 s", name).isLessThan(deadline);
            Thread.onSpinWait();
        }
        assertThat(storage.tables().describeTable(KIT_ACCOUNT, name).changeLog()).as("[I1] described").isEqualTo(setting);
        return name;
    }

    static void kitWrite(Storage storage, String table, List<Integer> writes) {
        for (int w : writes) {
            if (w < 0) {
                storage.tables().deleteItem(KIT_ACCOUNT, table,
                        RequestKey.of("pk", AttributeValue.s("k" + -w), "sk", AttributeValue.n("1")));
            } else {
                storage.tables().putItem(KIT_ACCOUNT, table, Item.of(Map.of("pk", AttributeValue.s("k" + w % 8),
                        "sk", AttributeValue.n("1"), "v", AttributeValue.s("v" + w))));
            }
        }
    }

    /** Reads a full snapshot into {@code into}; answers its marker. */
    static String kitSnapshot(Storage storage, String table, Map<String, Item> into) {
        try (TableSnapshot s = storage.snapshots().openTableSnapshot(KIT_ACCOUNT, table)) {
            s.items().forEachRemaining(i -> into.put(kitKey(i.item()), i.item()));
            return s.info().marker();
        }
    }

    static String kitKey(Item item) {
        return ((AttributeValue.S) item.get("pk")).value();
    }
}
