package dev.stillpoint.adapters.mongo.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Data collection names: built from the table id only, and read back to it, which is how the orphan
 * sweep finds the collections of a table id this catalog recorded as deleted [O1].
 */
class DataCollectionsTest {

    @Test
    void d5_aDataCollectionsNameReadsBackAsItsTableId() {
        String id = DataCollections.newTableId();
        assertThat(DataCollections.tableIdOf(DataCollections.base(id))).contains(id);
        assertThat(DataCollections.tableIdOf(DataCollections.index(id, true, 0))).contains(id);
        assertThat(DataCollections.tableIdOf(DataCollections.index(id, false, 12))).contains(id);
    }

    @Test
    void d5_otherCollectionsAreNotTheAdapters() {
        for (String other : List.of("other", "d_", "d_ABC", "d_abc__gsi__", "d_abc__vec__0", "sp_tables", "xd_abc")) {
            assertThat(DataCollections.tableIdOf(other)).as(other).isEmpty();
        }
    }
}
