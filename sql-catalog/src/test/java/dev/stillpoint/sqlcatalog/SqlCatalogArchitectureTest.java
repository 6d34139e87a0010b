package dev.stillpoint.sqlcatalog;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The shared SQL-catalog code sits beside the adapters, not among them: it needs the domain, the
 * ports, jOOQ and item-json's {@code CatalogJson} (the catalog's JSON columns) only, so the two jOOQ
 * adapters can both use it without depending on each other.
 */
class SqlCatalogArchitectureTest {

    private static final JavaClasses PRODUCTION = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.stillpoint.sqlcatalog");

    @Test
    void theSharedSqlCatalogDependsOnDomainPortsItemJsonAndJooqOnly() {
        classes().that().resideInAPackage("dev.stillpoint.sqlcatalog..")
                .should().onlyDependOnClassesThat()
                .resideInAnyPackage("java..", "dev.stillpoint.domain..", "dev.stillpoint.ports..",
                        "dev.stillpoint.itemjson..", "dev.stillpoint.sqlcatalog..", "org.jooq..")
                .check(PRODUCTION);
    }
}
