package dev.stillpoint.properties.machinery;

import dev.stillpoint.ports.out.TableStatistics;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A fake of a backend's recount steps for core tests (no database): ACTIVE tables with the counts
 * their catalog holds and the counts a count finds now; every recorded change logged.
 */
class FakeStatistics implements TableStatistics {

    /** A table as listed: its name, its recorded counts and what counting it finds. */
    record Table(String name, Counts recorded, Counts now) implements Counted {
    }

    final List<Table> tables = Collections.synchronizedList(new ArrayList<>());
    final List<String> records = Collections.synchronizedList(new ArrayList<>());
    private final Runnable onList;

    /** Runs {@code onList} every time the tables are listed, as a recount begins. */
    FakeStatistics(Runnable onList) {
        this.onList = onList;
    }

    @Override
    public List<Counted> activeTables() {
        onList.run();
        return List.copyOf(tables);
    }

    @Override
    public Counts count(Counted table) {
        return ((Table) table).now();
    }

    @Override
    public void record(Counted table, Counts counts) {
        records.add(((Table) table).name() + " " + counts.items() + " items " + counts.bytes() + " bytes");
    }
}
