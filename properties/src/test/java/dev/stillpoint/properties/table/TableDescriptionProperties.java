package dev.stillpoint.properties.table;

import static dev.stillpoint.properties.table.TableArbitraries.keyAttributesOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.IndexStatus;
import dev.stillpoint.domain.table.LocalSecondaryIndex;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.VectorIndex;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** The description rules a snapshot applies: which indexes it keeps [D9] and which counts it clears [S2]. */
class TableDescriptionProperties {

    @Provide
    Arbitrary<TableDescription> descriptions() {
        return TableArbitraries.descriptions();
    }

    @Provide
    Arbitrary<TableDescription> intactDescriptions() {
        return TableArbitraries.intactDescriptions();
    }

    /** A description and the names of the GSIs whose data relation exists (any subset). */
    record WithRelations(TableDescription description, Set<String> gsisWithRelation) {
    }

    @Provide
    Arbitrary<WithRelations> withRelations() {
        return TableArbitraries.descriptions().flatMap(d -> Arbitraries
                .subsetOf(d.globalSecondaryIndexes().stream().map(GlobalSecondaryIndex::name).toList())
                .map(names -> new WithRelations(d, names)));
    }

    // [D9] keep every index in whatever build state it has: a CREATING index comes back complete.
    @Property
    void d9_dropDeletingIndexes_keepsEveryNonDeletingIndexInItsStateAndOrder(@ForAll("descriptions") TableDescription d) {
        TableDescription dropped = d.dropDeletingIndexes();

        assertThat(dropped.globalSecondaryIndexes()).containsExactlyElementsOf(d.globalSecondaryIndexes().stream()
                .filter(g -> g.status() != IndexStatus.DELETING).toList());
        assertThat(dropped.vectorIndexes()).containsExactlyElementsOf(d.vectorIndexes().stream()
                .filter(v -> v.status() != IndexStatus.DELETING).toList());
    }

    // [D9] drop only a DELETING GSI or vector index.
    @Property
    void d9_dropDeletingIndexes_dropsEveryDeletingGsiAndVectorIndex(@ForAll("descriptions") TableDescription d) {
        TableDescription dropped = d.dropDeletingIndexes();

        assertThat(dropped.globalSecondaryIndexes()).extracting(GlobalSecondaryIndex::status)
                .doesNotContain(IndexStatus.DELETING);
        assertThat(dropped.vectorIndexes()).extracting(VectorIndex::status).doesNotContain(IndexStatus.DELETING);
    }

    // [D9] LSIs live and die with their table: never dropped.
    @Property
    void d9_dropDeletingIndexes_neverTouchesLocalIndexes(@ForAll("descriptions") TableDescription d) {
        assertThat(d.dropDeletingIndexes().localSecondaryIndexes()).isEqualTo(d.localSecondaryIndexes());
    }

    // [D9] applying the rule to its own result changes nothing.
    @Property
    void d9_dropDeletingIndexes_isIdempotent(@ForAll("descriptions") TableDescription d) {
        TableDescription once = d.dropDeletingIndexes();
        assertThat(once.dropDeletingIndexes()).isEqualTo(once);
    }

    // [D9] the rule is about indexes: the table itself, its counts and summaries stay as they are.
    @Property
    void d9_dropDeletingIndexes_changesNothingButIndexesAndTheirDefinitions(@ForAll("descriptions") TableDescription d) {
        TableDescription dropped = d.dropDeletingIndexes();
        assertThat(sameIndexesAndDefinitions(dropped, d)).isEqualTo(d);
    }

    // [D9] a dropped DELETING GSI takes the definitions only it used, so a restore's CreateTable accepts the result.
    @Property
    void d9_dropDeletingIndexes_ofAnIntactTable_staysAValidCreateTableDefinition(
            @ForAll("intactDescriptions") TableDescription d) {
        TableDescription dropped = d.dropDeletingIndexes();

        assertThatCode(() -> TableArbitraries.requestFor(dropped)).doesNotThrowAnyException();
        assertThat(dropped.requireKeyAttributesDefined()).isSameAs(dropped);
    }

    // [D9] the definitions only a dropped DELETING GSI used go with it; no other definition does.
    @Property
    void d9_dropDeletingIndexes_dropsExactlyTheDefinitionsOnlyADroppedGsiUsed(@ForAll("descriptions") TableDescription d) {
        TableDescription dropped = d.dropDeletingIndexes();

        assertThat(dropped.attributeDefinitions()).containsExactlyElementsOf(
                definitionsWithout(d, d.globalSecondaryIndexes().stream()
                        .filter(g -> g.status() == IndexStatus.DELETING).toList(), dropped.globalSecondaryIndexes()));
    }

    // [D9] a GSI whose data relation is missing is left out; every other GSI stays, in order.
    @Property
    void d9_withoutGsisMissingRelations_keepsExactlyTheGsisWithARelation(@ForAll("withRelations") WithRelations w) {
        TableDescription pruned = w.description().withoutGsisMissingRelations(w.gsisWithRelation());

        assertThat(pruned.globalSecondaryIndexes()).containsExactlyElementsOf(w.description().globalSecondaryIndexes()
                .stream().filter(g -> w.gsisWithRelation().contains(g.name())).toList());
        assertThat(pruned.localSecondaryIndexes()).isEqualTo(w.description().localSecondaryIndexes());
        assertThat(pruned.vectorIndexes()).isEqualTo(w.description().vectorIndexes());
    }

    // [D9] a definition used by the table key, an LSI or a remaining GSI is never dropped.
    @Property
    void d9_withoutGsisMissingRelations_neverDropsADefinitionStillUsed(@ForAll("withRelations") WithRelations w) {
        TableDescription pruned = w.description().withoutGsisMissingRelations(w.gsisWithRelation());
        Set<String> stillUsed = keyAttributesOf(w.description(), pruned.globalSecondaryIndexes());

        assertThat(pruned.attributeDefinitions()).containsAll(w.description().attributeDefinitions().stream()
                .filter(def -> stillUsed.contains(def.name())).toList());
    }

    // [D9] the definitions only a left-out GSI used go with it; no other definition does.
    @Property
    void d9_withoutGsisMissingRelations_dropsExactlyTheDefinitionsOnlyALeftOutGsiUsed(
            @ForAll("withRelations") WithRelations w) {
        TableDescription d = w.description();
        TableDescription pruned = d.withoutGsisMissingRelations(w.gsisWithRelation());

        assertThat(pruned.attributeDefinitions()).containsExactlyElementsOf(definitionsWithout(d,
                d.globalSecondaryIndexes().stream().filter(g -> !w.gsisWithRelation().contains(g.name())).toList(),
                pruned.globalSecondaryIndexes()));
    }

    // [D9] with every relation present nothing is left out.
    @Property
    void d9_withoutGsisMissingRelations_withEveryRelationPresent_changesNothing(
            @ForAll("descriptions") TableDescription d) {
        Set<String> all = d.globalSecondaryIndexes().stream().map(GlobalSecondaryIndex::name).collect(Collectors.toSet());
        assertThat(d.withoutGsisMissingRelations(all)).isEqualTo(d);
    }

    // [D1, D10] a catalog description is a valid new table exactly when every key attribute of the table,
    // its global and its local indexes has a definition; otherwise the check names an undefined one.
    @Property
    void d10_requireKeyAttributesDefined_acceptsExactlyTheFullyDefinedDescriptions(
            @ForAll("descriptions") TableDescription d) {
        Set<String> undefined = new LinkedHashSet<>(keyAttributesOf(d, d.globalSecondaryIndexes()));
        undefined.removeAll(d.attributeDefinitions().stream().map(AttributeDefinition::name).toList());

        if (undefined.isEmpty()) {
            assertThat(d.requireKeyAttributesDefined()).isSameAs(d);
        } else {
            assertThatThrownBy(d::requireKeyAttributesDefined).isInstanceOfSatisfying(StorageException.class, e -> {
                assertThat(e.reason()).isEqualTo(ErrorReason.VALIDATION);
                assertThat(undefined).anySatisfy(name -> assertThat(e.getMessage()).contains("'" + name + "'"));
            });
        }
    }

    // [S2] the running counts of the table and of every index are cleared.
    @Property
    void s2_snapshotView_zeroesEveryRunningCount(@ForAll("descriptions") TableDescription d) {
        TableDescription view = d.snapshotView();

        assertThat(view.itemCount()).isZero();
        assertThat(view.tableSizeBytes()).isZero();
        assertThat(view.globalSecondaryIndexes()).allSatisfy(g -> {
            assertThat(g.itemCount()).isZero();
            assertThat(g.sizeBytes()).isZero();
        });
        assertThat(view.localSecondaryIndexes()).allSatisfy(l -> {
            assertThat(l.itemCount()).isZero();
            assertThat(l.sizeBytes()).isZero();
        });
    }

    // [S2] the throughput-mode summary is cleared; the restore summary is included.
    @Property
    void s2_snapshotView_clearsThroughputSummaryAndKeepsRestoreSummary(@ForAll("descriptions") TableDescription d) {
        TableDescription view = d.snapshotView();

        assertThat(view.throughputModeSummary()).isEmpty();
        assertThat(view.restoreSummary()).isEqualTo(d.restoreSummary());
    }

    // [S2] everything but the counts and the throughput summary is the storage layer's description.
    @Property
    void s2_snapshotView_keepsEverythingElse(@ForAll("descriptions") TableDescription d) {
        TableDescription view = d.snapshotView();

        assertThat(view.attributeDefinitions()).isEqualTo(d.attributeDefinitions());
        assertThat(view.keySchema()).isEqualTo(d.keySchema());
        assertThat(view.status()).isEqualTo(d.status());
        assertThat(view.streamSpecification()).isEqualTo(d.streamSpecification());
        assertThat(view.timeToLive()).isEqualTo(d.timeToLive());
        assertThat(view.vectorIndexes()).isEqualTo(d.vectorIndexes());
        assertThat(view.globalSecondaryIndexes()).containsExactlyElementsOf(
                d.globalSecondaryIndexes().stream().map(GlobalSecondaryIndex::withoutCounts).toList());
        assertThat(view.localSecondaryIndexes()).containsExactlyElementsOf(
                d.localSecondaryIndexes().stream().map(LocalSecondaryIndex::withoutCounts).toList());
        assertThat(view.globalSecondaryIndexes()).extracting(GlobalSecondaryIndex::status, GlobalSecondaryIndex::backfilling)
                .containsExactlyElementsOf(d.globalSecondaryIndexes().stream()
                        .map(g -> tuple(g.status(), g.backfilling())).toList());
    }

    // [S2] a snapshot of a snapshot's description is the same description.
    @Property
    void s2_snapshotView_isIdempotent(@ForAll("descriptions") TableDescription d) {
        TableDescription view = d.snapshotView();
        assertThat(view.snapshotView()).isEqualTo(view);
    }

    // [S2, D9] the two rules are independent: either order gives the same snapshot description.
    @Property
    void s2_snapshotView_commutesWithDropDeletingIndexes(@ForAll("descriptions") TableDescription d) {
        assertThat(d.snapshotView().dropDeletingIndexes()).isEqualTo(d.dropDeletingIndexes().snapshotView());
    }

    /**
     * The model of the pruning rule: {@code d}'s definitions, in order, without those a left-out GSI
     * used and nothing that remains (table key, LSI, kept GSI) uses.
     */
    private static List<AttributeDefinition> definitionsWithout(
            TableDescription d, List<GlobalSecondaryIndex> leftOut, List<GlobalSecondaryIndex> kept) {
        Set<String> onlyLeftOut = new HashSet<>();
        leftOut.forEach(g -> onlyLeftOut.addAll(keyAttributesOf(g.keySchema())));
        onlyLeftOut.removeAll(keyAttributesOf(d, kept));
        return d.attributeDefinitions().stream().filter(def -> !onlyLeftOut.contains(def.name())).toList();
    }

    /** {@code changed} with {@code original}'s indexes and definitions put back. */
    private static TableDescription sameIndexesAndDefinitions(TableDescription changed, TableDescription original) {
        return new TableDescription(changed.accountId(), changed.tableName(), changed.tableId(), changed.tableArn(),
                changed.status(), changed.creationTime(), changed.keySchema(), original.attributeDefinitions(),
                original.globalSecondaryIndexes(), original.localSecondaryIndexes(), original.vectorIndexes(),
                changed.streamSpecification(), changed.timeToLive(), changed.restoreSummary(),
                changed.throughputModeSummary(), changed.itemCount(), changed.tableSizeBytes());
    }
}
