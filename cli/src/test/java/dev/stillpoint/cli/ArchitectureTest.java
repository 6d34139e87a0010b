package dev.stillpoint.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.stillpoint.ports.in.ItemStream;
import dev.stillpoint.ports.in.RestoreLoad;
import dev.stillpoint.ports.in.SnapshotEngine;
import dev.stillpoint.ports.in.Storage;
import dev.stillpoint.ports.in.TableOperations;
import dev.stillpoint.ports.in.TableRestores;
import org.junit.jupiter.api.Test;

/**
 * The hexagon's dependency rule, read as sentences: the domain needs only the JDK; ports need only
 * the domain; the core needs the domain and the ports; the item codec (item-json) needs only the domain; the shared SQL-catalog code needs the
 * hexagon and jOOQ, and only the jOOQ adapters use it; adapters never need each other.
 * Runs here because this module sees every module.
 */
class ArchitectureTest {

    private static final JavaClasses PRODUCTION = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.stillpoint");

    private static final JavaClasses ALL = new ClassFileImporter().importPackages("dev.stillpoint");

    @Test
    void domainDependsOnTheJdkOnly() {
        classes().that().resideInAPackage("dev.stillpoint.domain..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "dev.stillpoint.domain..")
                .check(ALL);
    }

    /** The domain's packages form no cycle: key schemas know no items, items (and their order) use key schemas. */
    @Test
    void theDomainsPackagesAreFreeOfCycles() {
        com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices()
                .matching("dev.stillpoint.domain.(*)..").should().beFreeOfCycles().check(PRODUCTION);
    }

    /**
     * The CLI is one package, so its cycles are between classes: the demo's parts take the demo's table and
     * account from {@code DemoData}, never back from {@code DemoCommand} which runs them, and a command's
     * {@code Backend} opens a database file through {@code DatabaseFile}, never back through the
     * {@code StorageCommand} that holds it (issue 28). Each of these classes (with its nested classes) is
     * a slice; the other CLI classes are left out of the rule.
     */
    @Test
    void theDemoAndTheBackendOptionsFormNoClassCycle() {
        com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices()
                .assignedFrom(new com.tngtech.archunit.library.dependencies.SliceAssignment() {
                    @Override
                    public com.tngtech.archunit.library.dependencies.SliceIdentifier getIdentifierOf(
                            com.tngtech.archunit.core.domain.JavaClass c) {
                        String top = c.getName().replaceFirst("\\$.*", "");
                        if (!top.startsWith("dev.stillpoint.cli.")) {
                            return com.tngtech.archunit.library.dependencies.SliceIdentifier.ignore();
                        }
                        String simple = top.substring("dev.stillpoint.cli.".length());
                        return simple.startsWith("Demo") || simple.equals("Backend") || simple.equals("StorageCommand")
                                || simple.equals("DatabaseFile")
                                ? com.tngtech.archunit.library.dependencies.SliceIdentifier.of(simple)
                                : com.tngtech.archunit.library.dependencies.SliceIdentifier.ignore();
                    }

                    @Override
                    public String getDescription() {
                        return "the CLI's Demo* classes, Backend, StorageCommand and DatabaseFile, one slice each";
                    }
                })
                .should().beFreeOfCycles().check(PRODUCTION);
    }

    @Test
    void portsDependOnTheDomainOnly() {
        classes().that().resideInAPackage("dev.stillpoint.ports..")
                .should().onlyDependOnClassesThat()
                .resideInAnyPackage("java..", "dev.stillpoint.domain..", "dev.stillpoint.ports..", "org.slf4j..")
                .check(ALL);
    }

    /** The core (the services behind the driving ports, leases, the control plane) needs the domain and the ports only. */
    @Test
    void theCoreDependsOnTheDomainAndThePortsOnly() {
        classes().that().resideInAPackage("dev.stillpoint.core..")
                .should().onlyDependOnClassesThat()
                .resideInAnyPackage("java..", "dev.stillpoint.domain..", "dev.stillpoint.ports..", "dev.stillpoint.core..",
                        "org.slf4j..")
                .check(PRODUCTION);
    }

    /**
     * Export and restore work on any backend through the driving ports and the item codec, so the
     * backup library never names an adapter (nor the command line that drives it): a backend gains
     * export and restore by implementing {@link Storage}, nothing more.
     */
    @Test
    void backupDependsOnPortsDomainAndJacksonOnly() {
        classes().that().resideInAPackage("dev.stillpoint.backup..")
                .should().onlyDependOnClassesThat()
                .resideInAnyPackage("java..", "dev.stillpoint.domain..", "dev.stillpoint.ports..",
                        "dev.stillpoint.backup..", "dev.stillpoint.itemjson..", "com.fasterxml.jackson..")
                .check(PRODUCTION);
    }

    /**
     * The DynamoDB JSON codec sits beside the domain, not in it, and needs nothing but the domain and
     * the JDK; the ports never see it (the rule above), so a {@code StoredItem} is decoded by the
     * adapter that made it.
     */
    @Test
    void theItemCodecDependsOnTheDomainOnly() {
        classes().that().resideInAPackage("dev.stillpoint.itemjson..")
                .should().onlyDependOnClassesThat()
                .resideInAnyPackage("java..", "dev.stillpoint.domain..", "dev.stillpoint.itemjson..")
                .check(ALL);
    }

    /**
     * The code the two jOOQ adapters share (issue 11) sits beside the adapters, not among them: it needs
     * the domain, the ports, jOOQ and item-json's {@code CatalogJson} (the catalog's JSON columns) only.
     */
    @Test
    void theSharedSqlCatalogDependsOnDomainPortsItemJsonAndJooqOnly() {
        classes().that().resideInAPackage("dev.stillpoint.sqlcatalog..")
                .should().onlyDependOnClassesThat()
                .resideInAnyPackage("java..", "dev.stillpoint.domain..", "dev.stillpoint.ports..",
                        "dev.stillpoint.itemjson..", "dev.stillpoint.sqlcatalog..", "org.jooq..")
                .check(PRODUCTION);
    }

    /** Only the SQL adapters use the shared SQL-catalog code; MongoDB and Cassandra keep their own catalogs. */
    @Test
    void onlyTheJooqAdaptersUseTheSharedSqlCatalog() {
        noClasses().that().resideInAnyPackage("dev.stillpoint.adapters.mongo..", "dev.stillpoint.adapters.cassandra..",
                        "dev.stillpoint.backup..", "dev.stillpoint.cli..")
                .should().dependOnClassesThat().resideInAPackage("dev.stillpoint.sqlcatalog..")
                .check(PRODUCTION);
    }

    @Test
    void adaptersNeverDependOnEachOther() {
        String[] adapters = {"sqlite", "postgres", "mongo", "cassandra"};
        for (String adapter : adapters) {
            for (String other : adapters) {
                if (!adapter.equals(other)) {
                    noClasses().that().resideInAPackage("dev.stillpoint.adapters." + adapter + "..")
                            .should().dependOnClassesThat().resideInAPackage("dev.stillpoint.adapters." + other + "..")
                            .allowEmptyShould(true)
                            .check(ALL);
                }
            }
        }
    }

    /**
     * Adapters hold storage only: the driving ports (table operations, snapshots) are implemented once,
     * in the core, so DynamoDB's request rules cannot drift apart between backends again (issue 10).
     */
    @Test
    void noAdapterImplementsADrivingPort() {
        // StoredItem is the stream's element, a value an adapter may represent its own way; the ports are these.
        noClasses().that().resideInAPackage("dev.stillpoint.adapters..")
                .should().implement(TableOperations.class)
                .orShould().implement(SnapshotEngine.class)
                .orShould().implement(ItemStream.class)
                .orShould().implement(TableRestores.class)
                .orShould().implement(RestoreLoad.class)
                .check(PRODUCTION);
    }

    /**
     * The write sequence is the core's (issue 28): no adapter applies DynamoDB's request rules, decides
     * a batch or loops over one; it stores what the core's {@code ItemWrites} hands its unit of work.
     */
    @Test
    void noAdapterRunsTheRequestRulesOrLoopsOverABatch() {
        noClasses().that().resideInAPackage("dev.stillpoint.adapters..")
                .should().dependOnClassesThat().belongToAnyOf(dev.stillpoint.domain.request.BatchRules.class,
                        dev.stillpoint.domain.request.TableRules.class, dev.stillpoint.domain.request.ItemChange.class,
                        dev.stillpoint.core.InOrderBatch.class)
                .orShould().callMethodWhere(com.tngtech.archunit.base.DescribedPredicate.describe(
                        "ItemRules.forPut or ItemRules.forKey",
                        call -> call.getTargetOwner().isEquivalentTo(dev.stillpoint.domain.request.ItemRules.class)
                                && (call.getName().equals("forPut") || call.getName().equals("forKey"))))
                .check(PRODUCTION);
    }

    /**
     * One composition root: the core's {@code StorageCore} assembles the control plane, the permit ledger
     * and the snapshot engine from an adapter's ports and its {@code CoreSettings}, and
     * {@code InlineStorageCore} the services of a backend without a control plane (Cassandra) [C2]; no
     * adapter builds any of the core's services itself.
     */
    private static final java.util.List<Class<?>> CORE_SERVICES = java.util.List.of(
            dev.stillpoint.core.ControlPlane.class, dev.stillpoint.core.TableService.class,
            dev.stillpoint.core.RestoreService.class, dev.stillpoint.core.ItemWrites.class,
            dev.stillpoint.core.lifecycle.TableDeletion.class, dev.stillpoint.core.lifecycle.ControlPlanePoller.class,
            dev.stillpoint.core.lifecycle.StatisticsRefresh.class, dev.stillpoint.core.lifecycle.RestoreSweep.class,
            dev.stillpoint.core.snapshot.LeasedSnapshotEngine.class, dev.stillpoint.core.snapshot.PermitLedger.class);

    @Test
    void onlyTheCoreAssemblesTheControlPlaneAndTheSnapshotEngine() {
        noClasses().that().resideInAPackage("dev.stillpoint.adapters..")
                .should().callConstructorWhere(com.tngtech.archunit.base.DescribedPredicate.describe(
                        "a constructor of one of the core's services (ControlPlane, TableService, LeasedSnapshotEngine, ...)",
                        call -> CORE_SERVICES.stream().anyMatch(call.getTargetOwner()::isEquivalentTo)))
                .check(PRODUCTION);
    }

    /**
     * Which items a new GSI holds is the core's decision: UpdateTable's backfill (page, compute each
     * entry's key, write, mark ACTIVE) runs once, in {@code core.IndexAddition}, over each backend's
     * {@code ports.out.IndexBuild} steps, so no adapter calls the entry-key rule. The one exception is
     * Cassandra's {@code CqlKey.inIndex}: without transactions, each item write keeps its own entries (rules 2
     * and 3 of {@code CassandraItems}), deleting the stored earlier version's entry and giving an index
     * recorded while the write ran its entry, and both need the key of a version the core never read.
     */
    @Test
    void noAdapterDecidesWhichItemsAnIndexHolds() {
        noClasses().that().resideInAPackage("dev.stillpoint.adapters..")
                .and().doNotHaveFullyQualifiedName("dev.stillpoint.adapters.cassandra.CqlKey")
                .should().callMethodWhere(com.tngtech.archunit.base.DescribedPredicate.describe(
                        "ItemRules.entryKeyOfStoredItem",
                        call -> call.getTargetOwner().isEquivalentTo(dev.stillpoint.domain.request.ItemRules.class)
                                && call.getName().equals("entryKeyOfStoredItem")))
                .check(PRODUCTION);
    }

    /**
     * One storage interface: every backend's facade ({@code SqliteStorage}, {@code PostgresStorage},
     * {@code MongoStorage}, {@code CassandraStorage}) is a {@link Storage} through the core's
     * {@code CoreFacade} ({@code StorageFacade} or {@code InlineStorageFacade}), which only hands out the
     * core's services, so the rule above still holds and no facade writes the hand-out again.
     */
    @Test
    void everyBackendFacadeIsAStorage() {
        classes().that().resideInAPackage("dev.stillpoint.adapters..").and().haveSimpleNameEndingWith("Storage")
                .should().beAssignableTo(dev.stillpoint.core.CoreFacade.class)
                .check(PRODUCTION);
    }

    /**
     * Metrics are an embedder's choice [X1]: the core tells {@code ports.out.StorageEvents} what happens and
     * only {@code metrics-micrometer} turns that into Micrometer meters, so no other module, the core least
     * of all, needs Micrometer on its class path.
     */
    @Test
    void onlyTheMetricsModuleUsesMicrometer() {
        noClasses().that().resideOutsideOfPackage("dev.stillpoint.metrics..")
                .should().dependOnClassesThat().resideInAPackage("io.micrometer..")
                .check(PRODUCTION);
    }

    /** The metrics binder sees the storage through the ports only, so it serves every backend alike. */
    @Test
    void theMetricsModuleDependsOnThePortsAndMicrometerOnly() {
        classes().that().resideInAPackage("dev.stillpoint.metrics..")
                .should().onlyDependOnClassesThat()
                .resideInAnyPackage("java..", "dev.stillpoint.domain..", "dev.stillpoint.ports..",
                        "dev.stillpoint.metrics..", "io.micrometer..")
                .check(PRODUCTION);
    }

    @Test
    void nothingInsideTheHexagonDependsOnAdaptersOrTheCli() {
        noClasses().that().resideInAnyPackage("dev.stillpoint.domain..", "dev.stillpoint.ports..", "dev.stillpoint.core..",
                        "dev.stillpoint.itemjson..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.stillpoint.adapters..", "dev.stillpoint.cli..",
                        "dev.stillpoint.sqlcatalog..")
                .check(PRODUCTION);
    }
}
