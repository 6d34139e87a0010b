package dev.stillpoint.properties.machinery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.snapshot.PermitPool;
import dev.stillpoint.ports.in.ItemStream;
import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.ports.out.ReadObserver;
import dev.stillpoint.core.snapshot.LeasedSnapshotEngine;
import dev.stillpoint.core.snapshot.PermitLedger;
import java.lang.ref.Cleaner;
import java.util.NoSuchElementException;
import net.jqwik.api.Example;

/**
 * A closed stream yields nothing more [D6, S5], also when its whole table fitted in one page: that
 * page's lease ended (drained) when it was fetched, so its items sat in the stream's buffer, and a
 * close used to leave them there (issue 10: four more items from a five-item table after close).
 */
class ClosedStreamTest {

    @Example
    void s5_aClosedStreamOfAOnePageTableYieldsNothingMore() {
        InMemoryReadPort port = new InMemoryReadPort(Descriptions.active("acct", "things"), 5);
        LeasedSnapshotEngine engine = new LeasedSnapshotEngine(port, new PermitLedger(PermitPool.withCapacity(2)),
                () -> { }, new PageBudget(100, 1 << 20), ReadObserver.NONE, Cleaner.create());
        ItemStream items = engine.openTableSnapshot("acct", "things").items();
        assertThat(items.hasNext()).as("the stream has items before it is closed").isTrue();
        items.next();
        items.close();
        assertThat(items.hasNext()).as("[S5] no item is yielded after close, though four were buffered").isFalse();
        assertThatThrownBy(items::next).isInstanceOf(NoSuchElementException.class)
                .hasMessage("the snapshot stream has ended (released)");
        assertThat(items.isReleased()).as("[S5] the lease is released").isTrue();
    }
}
