package dev.stillpoint.properties.machinery;

import dev.stillpoint.core.ItemWrites;
import dev.stillpoint.domain.lifecycle.RestoreIdleLimit;
import dev.stillpoint.core.RestoreService;
import dev.stillpoint.core.lifecycle.TableDeletion;
import java.time.Duration;
import java.time.Instant;

/**
 * The restore's core over in-memory fakes, as the restore tests share it: restoring rows in a
 * {@link FakeCatalog}, items in {@link InMemoryTables} reading their definitions from those rows, the
 * drop path over the same catalog, and a clock only the test moves.
 */
final class RestoreRig {

    static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");
    static final Duration LIMIT = Duration.ofSeconds(60);

    final ManualClock clock = new ManualClock(T0);
    final FakeCatalog catalog = new FakeCatalog();
    final InMemoryTables storage = new InMemoryTables(catalog);
    final TableDeletion deletion = new TableDeletion(catalog, clock, () -> { }, () -> Duration.ZERO);
    final RestoreService service = new RestoreService(catalog, storage, new ItemWrites(storage), deletion, clock,
            new RestoreIdleLimit(LIMIT));
}
