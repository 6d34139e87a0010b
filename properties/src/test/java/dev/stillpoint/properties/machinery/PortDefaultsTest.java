package dev.stillpoint.properties.machinery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.lifecycle.TableState;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.in.ChangeLogReads;
import dev.stillpoint.ports.in.ChangeWindow;
import dev.stillpoint.ports.in.LoggedChange;
import dev.stillpoint.ports.in.RestoreLoad;
import dev.stillpoint.ports.in.SnapshotInfo;
import dev.stillpoint.ports.in.TableChanges;
import dev.stillpoint.ports.out.BulkLoads;
import dev.stillpoint.ports.out.ItemUnit;
import dev.stillpoint.domain.request.ItemWrite;
import dev.stillpoint.ports.out.PendingTransition;
import dev.stillpoint.ports.out.StorageTable;
import dev.stillpoint.ports.out.TableRecord;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What the ports answer where a backend says nothing: one bulk writer and one restore writer [B3], no
 * optimistic write path, and a change log window collected from its stream in the order it came [I2].
 */
class PortDefaultsTest {

    @Test
    void b3_oneWriterUnlessTheBackendSaysMore() {
        BulkLoads bulk = table -> {
            throw new AssertionError("not asked");
        };
        assertThat(bulk.writers()).as("[B3] one bulk load per restoring table by default").isEqualTo(1);
        RestoreLoad load = new RestoreLoad() {
            @Override
            public TableDescription table() {
                throw new AssertionError("not asked");
            }

            @Override
            public void write(List<Item> items) {
                throw new AssertionError("not asked");
            }

            @Override
            public TableDescription complete() {
                throw new AssertionError("not asked");
            }

            @Override
            public void close() {
            }
        };
        assertThat(load.concurrentWriters()).as("[B3] one writing thread by default").isEqualTo(1);
        assertThat(ControlPlaneTest.NO_ITEMS.onKnownDefinitions("writing", List.of(), unit -> {
            throw new AssertionError("no optimistic path: the writes are not run");
        })).as("no optimistic path unless the backend has one").isFalse();
    }

    // A backend whose catalog keeps no version says nothing of stamps: the core loads the definition in every
    // unit and never asks a unit for stamps (mutant: versionedCatalog's default true -> fails here).
    @Test
    void anUnversionedCatalogIsTheDefault() {
        assertThat(ControlPlaneTest.NO_ITEMS.versionedCatalog()).as("no catalog version unless the backend has one")
                .isFalse();
        StorageTable table = () -> Descriptions.active("acct", "Orders");
        assertThat(table.stamp()).as("a table loaded without a stamp").isEmpty();
        ItemUnit unit = new ItemUnit() {
            @Override
            public boolean atomic() {
                return false;
            }

            @Override
            public Optional<StorageTable> load(String accountId, String tableName) {
                throw new AssertionError("not asked");
            }

            @Override
            public void upsert(StorageTable t, ItemWrite write) {
                throw new AssertionError("not asked");
            }

            @Override
            public void delete(StorageTable t, Key key) {
                throw new AssertionError("not asked");
            }
        };
        assertThatThrownBy(() -> unit.stamps("acct", List.of("Orders")))
                .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("keeps no stamps");
    }

    // E5: the restoring rows are the pending transitions in RESTORING, whatever else is pending.
    @Test
    void e5_restoringTablesAreThePendingOnesThatRestore() {
        FakeCatalog catalog = new FakeCatalog();
        catalog.rows.put("Creating", new TableRecord(Descriptions.active("acct", "Creating"), new TableState.Creating(Instant.EPOCH)));
        catalog.rows.put("Restoring", new TableRecord(Descriptions.active("acct", "Restoring"), new TableState.Restoring(Instant.EPOCH)));
        catalog.rows.put("Active", new TableRecord(Descriptions.active("acct", "Active"), new TableState.Active()));
        assertThat(catalog.pendingTransitions()).hasSize(2);
        assertThat(catalog.restoringTables()).containsExactly(
                new PendingTransition("acct", "Restoring", new TableState.Restoring(Instant.EPOCH)));
    }

    @Test
    void i2_changesSinceCollectsTheStreamedWindowInOrder() {
        TableDescription table = Descriptions.active("acct", "Orders");
        Item a = Item.of(Map.of("pk", AttributeValue.s("a")));
        Item b = Item.of(Map.of("pk", AttributeValue.s("b")));
        LoggedChange put = new LoggedChange(a, Optional.of(a), Optional.empty());
        LoggedChange gone = new LoggedChange(b, Optional.empty(), Optional.of(b));
        ChangeLogReads reads = (account, name, since, sink) -> {
            sink.begin(new ChangeWindow(table, new SnapshotInfo("fake", since), new SnapshotInfo("fake", "B")));
            sink.change(put);
            sink.change(gone);
        };
        TableChanges changes = reads.changesSince("acct", "Orders", "A");
        assertThat(changes.description()).isEqualTo(table);
        assertThat(changes.since()).isEqualTo(new SnapshotInfo("fake", "A"));
        assertThat(changes.until()).isEqualTo(new SnapshotInfo("fake", "B"));
        assertThat(changes.changes()).as("[I2] every change, in the order streamed").containsExactly(put, gone);
    }
}
