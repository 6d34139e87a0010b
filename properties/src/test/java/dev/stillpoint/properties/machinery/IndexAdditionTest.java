package dev.stillpoint.properties.machinery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.stillpoint.core.IndexAddition;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateGsiRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.IndexStatus;
import dev.stillpoint.domain.table.Projection;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.out.BackfillEntry;
import dev.stillpoint.ports.out.BaseItem;
import dev.stillpoint.ports.out.IndexBuild;
import dev.stillpoint.ports.out.ItemScan;
import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.ports.out.StorageTable;
import dev.stillpoint.ports.out.TableCatalog;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The core's GSI addition over a fake build (no database): pages are bounded and the last page ends the
 * scan, an item without the index key (or with it of another type) stays out, each item lands in the
 * index exactly once, and a failure mid-backfill leaves an atomic build uncommitted and a non-atomic
 * index CREATING, which the next attempt finishes instead of refusing.
 */
class IndexAdditionTest {

    private static final int PAGE = 3;
    private static final CreateGsiRequest BY_G = new CreateGsiRequest(
            GlobalSecondaryIndex.creating("byG", KeySchema.hashOnly("g"), Projection.all()),
            List.of(new AttributeDefinition("g", ScalarType.S)));

    /** A build over one table: the catalog's definition, the base items, the index's entries by base key. */
    private static class FakeBuild implements TableCatalog, IndexBuild {
        final boolean atomic;
        TableDescription definition = Descriptions.active("acct", "Orders");
        final List<Item> items = new ArrayList<>();
        final Map<String, Key> entries = new LinkedHashMap<>();
        final List<Integer> pages = new ArrayList<>();
        final List<String> steps = new ArrayList<>();
        int failOnWrite = -1;
        int losesRace;
        private int writes;
        private boolean scanClosed = true;

        FakeBuild(boolean atomic) {
            this.atomic = atomic;
        }

        @Override
        public Optional<TableDescription> describe(String accountId, String tableName) {
            return Optional.of(definition);
        }

        @Override
        public List<String> tableNames(String accountId) {
            return List.of("Orders");
        }

        /** An atomic build commits what it did only when the work returns, as a transaction would. */
        @Override
        public <T> T inIndexBuild(String doing, BuildWork<T> work) {
            TableDescription before = definition;
            Map<String, Key> entriesBefore = new LinkedHashMap<>(entries);
            try {
                return work.run(this);
            } catch (RuntimeException e) {
                if (atomic) {
                    definition = before;
                    entries.clear();
                    entries.putAll(entriesBefore);
                }
                throw e;
            }
        }

        @Override
        public boolean atomic() {
            return atomic;
        }

        @Override
        public Optional<StorageTable> load(String accountId, String tableName) {
            steps.add("load");
            return Optional.of(new DescribedTable(definition));
        }

        @Override
        public Optional<StorageTable> record(StorageTable table, TableDescription after, String indexName) {
            steps.add("record");
            if (losesRace-- > 0) {
                return Optional.empty();
            }
            definition = after;
            return Optional.of(new DescribedTable(after));
        }

        @Override
        public StorageTable resume(StorageTable table, String indexName) {
            steps.add("resume");
            return table;
        }

        @Override
        public ItemScan scan(StorageTable table) {
            scanClosed = false;
            return new ItemScan() {
                private int at;

                @Override
                public List<BaseItem> next(int max) {
                    List<BaseItem> page = new ArrayList<>();
                    while (page.size() < max && at < items.size()) {
                        Item item = items.get(at++);
                        page.add(() -> item);
                    }
                    pages.add(page.size());
                    return page;
                }

                @Override
                public void close() {
                    scanClosed = true;
                }
            };
        }

        @Override
        public void write(StorageTable table, String indexName, List<BackfillEntry> page) {
            if (writes++ == failOnWrite) {
                throw new StorageException(ErrorReason.TRANSIENT, "this fake fails on write " + failOnWrite);
            }
            for (BackfillEntry entry : page) {
                String base = ((AttributeValue.S) entry.item().item().attributes().get("pk")).value();
                // Keyed by base item: a second entry for one item would replace the first, so it is logged.
                if (entries.put(base, entry.indexKey()) != null) {
                    steps.add("again " + base);
                }
            }
        }

        @Override
        public void activate(StorageTable table, String indexName) {
            steps.add("activate");
            definition = definition.withIndexStatus(indexName, IndexStatus.ACTIVE);
        }
    }

    private static Item item(String pk, AttributeValue g) {
        Map<String, AttributeValue> attributes = new LinkedHashMap<>();
        attributes.put("pk", new AttributeValue.S(pk));
        if (g != null) {
            attributes.put("g", g);
        }
        return Item.of(attributes);
    }

    private static TableDescription add(FakeBuild build) {
        return new IndexAddition(build, PAGE).add("acct", "Orders", BY_G, before -> before.applyCreateGsi(BY_G));
    }

    @Test
    void everyItemWithTheIndexKeyIsCopiedOnceAcrossPageBoundariesAndTheIndexEndsActive() {
        for (int n : new int[] {0, PAGE - 1, PAGE, PAGE + 1, 2 * PAGE, 2 * PAGE + 1}) {
            FakeBuild build = new FakeBuild(true);
            Map<String, Key> expected = new LinkedHashMap<>();
            for (int i = 0; i < n; i++) {
                build.items.add(item("p" + i, new AttributeValue.S("g" + i)));
                expected.put("p" + i, Key.of(new AttributeValue.S("g" + i)));
            }
            TableDescription after = add(build);
            assertThat(build.entries).as("%d items: each in the index exactly once, under its g", n).isEqualTo(expected);
            assertThat(build.steps).as("%d items: no item written twice", n).noneMatch(step -> step.startsWith("again"));
            List<Integer> pages = new ArrayList<>();
            for (int full = 0; full < n / PAGE; full++) {
                pages.add(PAGE);
            }
            pages.add(n % PAGE);
            assertThat(build.pages).as("%d items: full pages of %d, then the one short page that ends the scan", n, PAGE)
                    .isEqualTo(pages);
            assertThat(build.scanClosed).as("the scan is closed").isTrue();
            assertThat(after.gsi("byG").orElseThrow().status()).as("the answer has the index ACTIVE").isEqualTo(IndexStatus.ACTIVE);
        }
    }

    // S7: a backfill's page of large items holds about IndexAddition.PAGE_BYTES, not PAGE items: found from
    // outside, adding a GSI to a SQLite table of 200 items of 395 KB ran out of a 64 MiB heap (one page of all).
    @Test
    void aPageOfLargeItemsHoldsAboutItsBytesNotAThousandItems() {
        FakeBuild build = new FakeBuild(true);
        int padChars = 300_000;
        for (int i = 0; i < 40; i++) {
            Map<String, AttributeValue> attributes = new LinkedHashMap<>();
            attributes.put("pk", new AttributeValue.S("p" + i));
            attributes.put("g", new AttributeValue.S("g" + i));
            attributes.put("pad", new AttributeValue.S("x".repeat(padChars)));
            build.items.add(Item.of(attributes));
        }

        new IndexAddition(build).add("acct", "Orders", BY_G, before -> before.applyCreateGsi(BY_G));

        assertThat(build.entries).as("every item in the index").hasSize(40);
        int most = (int) (IndexAddition.PAGE_BYTES / padChars) + 1;
        assertThat(build.pages.get(0)).as("the first page, before any size is known").isEqualTo(PageBudget.FIRST_FETCH_ROWS);
        assertThat(build.pages.subList(1, build.pages.size())).as("later pages of items of %d bytes, about %d bytes each",
                padChars, IndexAddition.PAGE_BYTES).allSatisfy(n -> assertThat(n).isLessThanOrEqualTo(most));
    }

    // DynamoDB's backfill leaves out an item that lacks the index key or holds it with another type
    // (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.OnlineOps.ViolationDetection.html).
    @Test
    void anItemWithoutTheIndexKeyOrWithItOfAnotherTypeStaysOutOfTheIndex() {
        FakeBuild build = new FakeBuild(true);
        build.items.add(item("with", new AttributeValue.S("x")));
        build.items.add(item("without", null));
        build.items.add(item("number", new AttributeValue.N("1")));
        build.items.add(item("empty", new AttributeValue.S("")));
        add(build);
        assertThat(build.entries.keySet()).as("only the item carrying g as a non-empty S").containsExactly("with");
    }

    @Test
    void aFailureMidBackfillCommitsNothingOnAnAtomicBuild() {
        FakeBuild build = new FakeBuild(true);
        for (int i = 0; i < 2 * PAGE + 1; i++) {
            build.items.add(item("p" + i, new AttributeValue.S("g" + i)));
        }
        build.failOnWrite = 1;
        Throwable failed = catchThrowable(() -> add(build));
        assertThat(failed).as("the failure reaches the caller").isInstanceOf(StorageException.class)
                .hasMessageContaining("fails on write 1");
        assertThat(build.steps).as("the index is never marked ACTIVE").doesNotContain("activate");
        assertThat(build.scanClosed).as("the scan is closed on the failure path").isTrue();
        assertThat(build.definition.gsi("byG")).as("the atomic build left no index").isEmpty();
    }

    @Test
    void aNonAtomicBuildLeftCreatingIsFinishedByTheNextAttempt() {
        FakeBuild build = new FakeBuild(false);
        for (int i = 0; i < 2 * PAGE + 1; i++) {
            build.items.add(item("p" + i, new AttributeValue.S("g" + i)));
        }
        build.failOnWrite = 1;
        assertThat(catchThrowable(() -> add(build))).isInstanceOf(StorageException.class);
        assertThat(build.definition.gsi("byG").orElseThrow().status()).as("left CREATING").isEqualTo(IndexStatus.CREATING);
        assertThat(build.entries).as("the first page's entries were applied").hasSize(PAGE);

        build.steps.clear();
        TableDescription after = add(build);
        assertThat(build.steps).as("resumed, not recorded (and refused) again")
                .startsWith("load", "resume").doesNotContain("record");
        assertThat(build.entries).as("every item in the index").hasSize(2 * PAGE + 1);
        assertThat(after.gsi("byG").orElseThrow().status()).isEqualTo(IndexStatus.ACTIVE);
    }

    @Test
    void aDefinitionChangedBeforeTheIndexWasRecordedIsLoadedAgain() {
        FakeBuild build = new FakeBuild(false);
        build.items.add(item("p", new AttributeValue.S("g")));
        build.losesRace = 2;
        add(build);
        assertThat(build.steps).as("load and record until recorded")
                .startsWith("load", "record", "load", "record", "load", "record");
        assertThat(build.entries).hasSize(1);
    }

    // V2: an index of the request's name that an earlier attempt did NOT leave half-built (already ACTIVE,
    // or CREATING with another key schema) is not "finished" by a non-atomic build: the rules refuse the
    // request (the name is taken), and no entry is written, so an ACTIVE index never gets its items twice.
    @Test
    void anIndexOfTheNameThatIsNotAnUnfinishedAttemptIsRefusedNotResumed() {
        FakeBuild active = new FakeBuild(false);
        active.items.add(item("p", new AttributeValue.S("g")));
        add(active);
        active.steps.clear();
        active.entries.clear();
        Throwable again = catchThrowable(() -> add(active));
        assertThat(again).as("an ACTIVE index of the name: refused").isInstanceOf(StorageException.class)
                .hasMessageContaining("already has an index named 'byG'");
        assertThat(active.steps).as("an ACTIVE index is not resumed").doesNotContain("resume");
        assertThat(active.entries).as("nor written again").isEmpty();

        // Left CREATING with key h by a failed attempt of another request; this request wants key g.
        FakeBuild otherKey = new FakeBuild(false);
        otherKey.items.add(item("p", new AttributeValue.S("g")));
        Map<String, AttributeValue> withH = new LinkedHashMap<>();
        withH.put("pk", new AttributeValue.S("q"));
        withH.put("h", new AttributeValue.S("x"));
        otherKey.items.add(Item.of(withH));
        CreateGsiRequest byH = new CreateGsiRequest(
                GlobalSecondaryIndex.creating("byG", KeySchema.hashOnly("h"), Projection.all()),
                List.of(new AttributeDefinition("h", ScalarType.S)));
        otherKey.failOnWrite = 0;
        assertThat(catchThrowable(() -> new IndexAddition(otherKey, PAGE).add("acct", "Orders", byH,
                before -> before.applyCreateGsi(byH)))).as("the first attempt fails mid-backfill")
                .isInstanceOf(StorageException.class);
        assertThat(otherKey.definition.gsi("byG").orElseThrow().status()).as("left CREATING").isEqualTo(IndexStatus.CREATING);
        otherKey.steps.clear();
        otherKey.entries.clear();
        assertThat(catchThrowable(() -> add(otherKey))).as("CREATING with another key schema: refused")
                .isInstanceOf(StorageException.class);
        assertThat(otherKey.steps).as("an index of another key schema is not resumed").doesNotContain("resume");
        assertThat(otherKey.entries).as("and nothing is written under the request's key").isEmpty();
    }

    // A build whose table's definition changes under every attempt gives up after MAX_ATTEMPTS (32) loads,
    // Transient naming the table and the index, rather than looping without end.
    @Test
    void aDefinitionChangingUnderEveryAttemptGivesUpTransientAfterThirtyTwo() {
        FakeBuild build = new FakeBuild(false);
        build.losesRace = Integer.MAX_VALUE;
        Throwable failed = catchThrowable(() -> add(build));
        assertThat(failed).isInstanceOf(StorageException.class)
                .hasMessageContaining("table 'Orders' changed 32 times while index 'byG' was being added");
        assertThat(((StorageException) failed).reason()).isEqualTo(ErrorReason.TRANSIENT);
        assertThat(build.steps.stream().filter("record"::equals).count()).as("32 attempts, no more").isEqualTo(32);
    }

    // A table gone before the build, or between its activation and the answer, is TableNotFound naming it.
    @Test
    void aTableGoneIsTableNotFound() {
        FakeBuild gone = new FakeBuild(true) {
            @Override
            public Optional<StorageTable> load(String accountId, String tableName) {
                return Optional.empty();
            }
        };
        Throwable failed = catchThrowable(() -> add(gone));
        assertThat(failed).isInstanceOf(StorageException.class).hasMessageContaining("Orders");
        assertThat(((StorageException) failed).reason()).isEqualTo(ErrorReason.TABLE_NOT_FOUND);

        FakeBuild goneAfter = new FakeBuild(true) {
            @Override
            public Optional<StorageTable> load(String accountId, String tableName) {
                return steps.contains("activate") ? Optional.empty() : super.load(accountId, tableName);
            }
        };
        Throwable late = catchThrowable(() -> add(goneAfter));
        assertThat(((StorageException) late).reason()).as("gone after activation").isEqualTo(ErrorReason.TABLE_NOT_FOUND);
    }

    @Test
    void aPageOfNoItemsIsRefused() {
        assertThat(catchThrowable(() -> new IndexAddition(new FakeBuild(true), 0)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("page must be positive, got 0");
        assertThat(new IndexAddition(new FakeBuild(true), 1)).isNotNull();
    }
}
