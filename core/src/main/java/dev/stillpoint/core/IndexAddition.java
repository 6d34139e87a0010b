package dev.stillpoint.core;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.request.ItemRules;
import dev.stillpoint.domain.table.CreateGsiRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.IndexStatus;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.out.BackfillEntry;
import dev.stillpoint.ports.out.BaseItem;
import dev.stillpoint.ports.out.IndexBuild;
import dev.stillpoint.ports.out.ItemScan;
import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.ports.out.StorageTable;
import dev.stillpoint.ports.out.TableCatalog;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * UpdateTable adding a GSI, written once for every backend over its {@link IndexBuild} steps: load the
 * table, take the rules' answer as the new definition, record the index CREATING, copy every base item
 * that carries the index's key into it page by page ({@link ItemRules#entryKeyOfStoredItem}: an item
 * without the key, or with an index key violation, stays out, as DynamoDB's backfill leaves it out), then
 * mark it ACTIVE. On an atomic build all of it is one unit of work, so the index is complete when it
 * becomes visible. Where the build is not atomic, a definition changed between load and record is loaded
 * again (at most {@link #MAX_ATTEMPTS} times), and an index an earlier attempt left CREATING with the
 * request's key schema and projection is finished instead of refused.
 */
public final class IndexAddition {

    /** Base items read and entries written per page, at most: bounded memory whatever the table's size. */
    public static final int PAGE = 1000;
    /**
     * About the bytes of base items a page holds [S7] ({@link PageBudget#rowsToFetch}): 1000 of the largest items
     * are 400 MB, and adding a GSI to a table of 200 items of 395 KB ran out of a 64 MiB heap on SQLite.
     */
    public static final long PAGE_BYTES = PageBudget.DEFAULT.bytes();
    /** Attempts of a build whose table's definition changed between load and record. */
    static final int MAX_ATTEMPTS = 32;

    private final TableCatalog catalog;
    private final int page;

    /**
     * The addition over one backend's catalog, in pages of {@link #PAGE} items.
     *
     * @param catalog the backend's catalog and its index build
     */
    public IndexAddition(TableCatalog catalog) {
        this(catalog, PAGE);
    }

    /**
     * The addition over one backend's catalog, in pages of {@code page} items (a test sets a small page to
     * cross page boundaries with few items).
     *
     * @param catalog the backend's catalog and its index build
     * @param page the number of base items read per page, positive
     */
    public IndexAddition(TableCatalog catalog, int page) {
        this.catalog = Objects.requireNonNull(catalog, "catalog");
        if (page <= 0) {
            throw new IllegalArgumentException("page must be positive, got " + page);
        }
        this.page = page;
    }

    /**
     * Adds the GSI {@code request} names.
     *
     * @param accountId the account the table belongs to
     * @param tableName the table's name
     * @param request the UpdateTable request adding the GSI
     * @param rules the new definition from the one loaded, refusing what cannot be added
     * @return the description with the index ACTIVE
     */
    public TableDescription add(String accountId, String tableName, CreateGsiRequest request,
                                UnaryOperator<TableDescription> rules) {
        String indexName = request.index().name();
        return catalog.inIndexBuild("adding index '" + indexName + "' to table '" + tableName + "'", build -> {
            for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
                StorageTable loaded = build.load(accountId, tableName)
                        .orElseThrow(() -> StorageException.tableNotFound(tableName));
                StorageTable target;
                if (!build.atomic() && unfinished(loaded.description(), request)) {
                    // An earlier attempt recorded this index and failed in its backfill: finish it.
                    target = build.resume(loaded, indexName);
                } else {
                    Optional<StorageTable> recorded = build.record(loaded, rules.apply(loaded.description()), indexName);
                    if (recorded.isEmpty()) {
                        continue;
                    }
                    target = recorded.get();
                }
                backfill(build, target, indexName);
                build.activate(target, indexName);
                return build.load(accountId, tableName).orElseThrow(() -> StorageException.tableNotFound(tableName))
                        .description();
            }
            throw new StorageException(ErrorReason.TRANSIENT, "table '" + tableName + "' changed " + MAX_ATTEMPTS
                    + " times while index '" + indexName + "' was being added; try again");
        });
    }

    /** Whether the table holds the request's index CREATING, as an earlier attempt left it. */
    private static boolean unfinished(TableDescription table, CreateGsiRequest request) {
        GlobalSecondaryIndex wanted = request.index();
        return table.gsi(wanted.name())
                .filter(g -> g.status() == IndexStatus.CREATING && g.backfilling()
                        && g.keySchema().equals(wanted.keySchema()) && g.projection().equals(wanted.projection()))
                .isPresent();
    }

    /**
     * Every base item that carries the index's key, written into the index a page at a time, each page asking
     * for as many items as {@link #PAGE_BYTES} holds at the average item so far (at most {@code page}).
     */
    private void backfill(IndexBuild build, StorageTable table, String indexName) {
        TableDescription definition = table.description();
        PageBudget budget = new PageBudget(page, PAGE_BYTES);
        long itemsSeen = 0;
        long bytesSeen = 0;
        try (ItemScan scan = build.scan(table)) {
            while (true) {
                int asked = budget.rowsToFetch(0, 0, itemsSeen, bytesSeen);
                List<BaseItem> items = scan.next(asked);
                List<BackfillEntry> entries = new ArrayList<>(items.size());
                for (BaseItem item : items) {
                    itemsSeen++;
                    bytesSeen += item.item().sizeInBytes();
                    Optional<Key> key = ItemRules.entryKeyOfStoredItem(definition, indexName, item.item());
                    key.ifPresent(k -> entries.add(new BackfillEntry(k, item)));
                }
                if (!entries.isEmpty()) {
                    build.write(table, indexName, entries);
                }
                if (items.size() < asked) {
                    return;
                }
            }
        }
    }
}
