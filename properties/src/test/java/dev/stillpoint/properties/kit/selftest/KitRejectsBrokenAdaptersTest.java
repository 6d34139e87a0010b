package dev.stillpoint.properties.kit.selftest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.table.RestoreSummary;
import dev.stillpoint.ports.in.SnapshotEngine;
import dev.stillpoint.ports.in.TableOperations;
import dev.stillpoint.properties.kit.ConformanceFixture;
import dev.stillpoint.properties.kit.Expectations;
import dev.stillpoint.properties.kit.Interleavings;
import dev.stillpoint.properties.kit.KitEngine;
import dev.stillpoint.properties.kit.KitSettings;
import dev.stillpoint.properties.kit.SnapshotConformanceKit;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.Example;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.opentest4j.TestAbortedException;

/**
 * The kit tested against deliberately broken adapters [K7]: each {@link Flaw} of the reference
 * adapter must fail the check that targets it, on the assertion that targets it (matched by the
 * bracketed rule and the assertion's words). Where a flaw is specific to one pause point or one
 * refusal, the other check is shown to pass, so the failure is the flaw's and not noise.
 */
class KitRejectsBrokenAdaptersTest {

    private static SnapshotConformanceKit kitAgainst(Flaw flaw) {
        ReferenceFixture fixture = new ReferenceFixture(flaw);
        return () -> fixture;
    }

    private static void failsOn(ThrowingCallable check, String... assertions) {
        var thrown = assertThatThrownBy(check).isInstanceOf(AssertionError.class);
        for (String assertion : assertions) {
            thrown.hasMessageContaining(assertion);
        }
    }

    @Example
    void pagesFromTheLiveTable_failK1_versionsDeletesAndInsertsLeakIn() {
        SnapshotConformanceKit kit = kitAgainst(Flaw.PAGES_FROM_THE_LIVE_TABLE);
        failsOn(kit::k1_oneInstantUnderAConcurrentWriter,
                "[K1] every item at its pre-open version",
                "[K1] every item deleted after the open is present",
                "[K1] no item inserted after the open is present");
    }

    // B2: segments that do not share the instant of the open (the PostgreSQL mutant without SET TRANSACTION
    // SNAPSHOT) fail the kit's one-instant rule, and only that one: with nothing writing, the union is still
    // the single stream.
    @Example
    void segmentsEachAtItsOwnInstant_failB2() {
        SnapshotConformanceKit kit = kitAgainst(Flaw.SEGMENTS_EACH_AT_ITS_OWN_INSTANT);
        failsOn(kit::b2_segmentsAreOneInstantUnderAConcurrentWriter,
                "[B2] HASH_S_RANGE_N: the union of the segments is exactly the items at the open");
        assertThatCode(kit::b2_theSegmentsInOrderAreTheSingleStream).doesNotThrowAnyException();
    }

    @Example
    void pagesFromTheLiveTable_failGeneratedInterleavings() {
        SnapshotConformanceKit kit = kitAgainst(Flaw.PAGES_FROM_THE_LIVE_TABLE);
        // The smallest interleaving that shows it: open, overwrite an item, read. (A write after the
        // first read would race with the page read ahead: the 4 seeded items fill two pages of 2, and the
        // second is fetched while the first is read.)
        List<Interleavings.Step> steps = List.of(new Interleavings.Open(), new Interleavings.Overwrite(3, 77),
                new Interleavings.DrainAll(0));
        failsOn(() -> kit.s1_generatedInterleavingsYieldTheInstantOfTheirOpen(steps), "[S1] snapshot 0");
        // And the generator finds one by itself within a property's worth of tries.
        Optional<List<Interleavings.Step>> found = new Interleavings.Steps().get().sampleStream().limit(50)
                .filter(s -> fails(() -> kit.s1_generatedInterleavingsYieldTheInstantOfTheirOpen(s)))
                .findFirst();
        assertThat(found).as("a failing interleaving among 50 generated ones").isPresent();
    }

    @Example
    void itemsPinnedAfterTheDefinitionPause_failK2AtAfterDefinition_only() {
        SnapshotConformanceKit kit = kitAgainst(Flaw.ITEMS_PINNED_AFTER_THE_DEFINITION_PAUSE);
        failsOn(kit::k2_pauseAfterDefinitionSeesOneInstant,
                "[K2] at AFTER_DEFINITION: W2 is not in the items at all",
                "[K2] at AFTER_DEFINITION: items with W2 have the GSI in the description");
        assertThatCode(kit::k2_pauseBeforeItemsSeesOneInstant).doesNotThrowAnyException();
    }

    @Example
    void slowUpdateTable_failK2_theTimeoutNotW2ResumedTheOpen() {
        SnapshotConformanceKit kit = kitAgainst(Flaw.SLOW_UPDATE_TABLE);
        failsOn(kit::k2_pauseBeforeItemsSeesOneInstant, "[K2] at BEFORE_ITEMS: what resumed the open");
    }

    @Example
    void unsortedPagesDeclaredOrdered_failEveryK5KeyShape() {
        SnapshotConformanceKit kit = kitAgainst(Flaw.UNSORTED_PAGES_DECLARED_ORDERED);
        failsOn(kit::k5_hashOnlyStringKeys, "[K5] HASH_S: keys strictly ascending");
        failsOn(kit::k5_hashOnlyNumberKeys, "[K5] HASH_N: keys strictly ascending");
        failsOn(kit::k5_hashOnlyBinaryKeys, "[K5] HASH_B: keys strictly ascending");
        failsOn(kit::k5_stringHashStringRange, "[K5] HASH_S_RANGE_S: keys strictly ascending");
        failsOn(kit::k5_stringHashNumberRange, "[K5] HASH_S_RANGE_N: keys strictly ascending");
        failsOn(kit::k5_stringHashBinaryRange, "[K5] HASH_S_RANGE_B: keys strictly ascending");
        failsOn(kit::k1_oneInstantUnderAConcurrentWriter, "[K1] keys strictly ascending");
    }

    @Example
    void descriptionWithoutRestoreSummary_failK3ForARestoredTable() {
        SnapshotConformanceKit kit = kitAgainst(Flaw.DESCRIPTION_WITHOUT_RESTORE_SUMMARY);
        failsOn(kit::k3_restoredTableDescriptionKeepsRestoreSummary,
                "[K3 restored] the snapshot's description equals DescribeTable",
                "[K3 restored] the snapshot keeps the restore summary");
    }

    @Example
    void everyPageReadDuringTheOpen_failK1_noFetchAfterTheWriter() {
        SnapshotConformanceKit kit = kitAgainst(Flaw.EVERY_PAGE_READ_DURING_THE_OPEN);
        failsOn(kit::k1_oneInstantUnderAConcurrentWriter, "[K1] the counter advanced after the writer committed");
    }

    @Example
    void permitKeptWhenRefusingANonActiveTable_failK6() {
        SnapshotConformanceKit kit = kitAgainst(Flaw.PERMIT_KEPT_WHEN_REFUSING_A_NON_ACTIVE_TABLE);
        failsOn(kit::k6_nonActiveTableIsRefused, "[K6] refusal", "an earlier refusal kept its permit");
        assertThatCode(kit::k6_missingTableIsTableNotFound).doesNotThrowAnyException();
    }

    // M4: a 34-digit backend refuses the 38-digit pair at the put, and the kit leaves it out.
    @Example
    void aReferenceStoring34Digits_passesK5NumberShapes() {
        ReferenceFixture fixture = new ReferenceFixture(Flaw.NONE, 34);
        SnapshotConformanceKit kit = () -> fixture;
        assertThatCode(kit::k5_hashOnlyNumberKeys).doesNotThrowAnyException();
        assertThatCode(kit::k5_stringHashNumberRange).doesNotThrowAnyException();
    }

    @Example
    void accepts38DigitNumbersDeclaring34_failK5_theRefusalIsAsserted() {
        SnapshotConformanceKit kit = kitAgainst(Flaw.ACCEPTS_38_DIGIT_NUMBERS_DECLARING_34);
        failsOn(kit::k5_hashOnlyNumberKeys, "[K5] HASH_N: a 34-digit backend refuses the 38-digit N");
        failsOn(kit::k5_stringHashNumberRange, "[K5] HASH_S_RANGE_N: a 34-digit backend refuses the 38-digit N");
    }

    // K3 applies only where restore records exist: an adapter without them sees the check aborted
    // (reported as skipped) with the reason, never silently passed.
    @Example
    void noRestoreRecords_abortK3RestoredWithTheReason() {
        ReferenceFixture reference = new ReferenceFixture(Flaw.NONE);
        ConformanceFixture withoutRestores = new ConformanceFixture() {
            @Override
            public String backendName() {
                return "reference without restore records";
            }

            @Override
            public java.util.Set<String> relationsInCatalog() {
                return reference.relationsInCatalog();
            }

            @Override
            public void writeAttributeDefinitions(String accountId, String tableName,
                                                  java.util.List<dev.stillpoint.domain.key.AttributeDefinition> definitions) {
                reference.writeAttributeDefinitions(accountId, tableName, definitions);
            }

            @Override
            public KitEngine start(KitSettings settings) {
                KitEngine engine = reference.start(settings);
                return new KitEngine() {
                    @Override
                    public TableOperations tables() {
                        return engine.tables();
                    }

                    @Override
                    public SnapshotEngine snapshots() {
                        return engine.snapshots();
                    }

                    @Override
                    public void recordRestore(String accountId, String tableName,
                                              RestoreSummary summary) {
                        throw new UnsupportedOperationException("no restore records here");
                    }

                    @Override
                    public void close() {
                        engine.close();
                    }
                };
            }

            @Override
            public Expectations expectations() {
                return reference.expectations();
            }
        };
        SnapshotConformanceKit kit = () -> withoutRestores;
        assertThatThrownBy(kit::k3_restoredTableDescriptionKeepsRestoreSummary)
                .isInstanceOf(TestAbortedException.class)
                .hasMessageContaining("[K3] reference without restore records keeps no restore records");
    }

    private static boolean fails(Runnable check) {
        try {
            check.run();
            return false;
        } catch (AssertionError e) {
            return true;
        }
    }
}
