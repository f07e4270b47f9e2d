package dev.bigfleet.proxmox.server;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The architecture, checked on the compiled classes of every module: dependencies flow server →
 * engine → spi → api; backends never see the server, the engine or the wiring; the engine and the
 * store have no gRPC, HTTP or Guice; no package cycles anywhere.
 */
class ArchitectureTest {
    private static final String[] WIRING_AND_TRANSPORT = {
        "io.grpc..",
        "org.eclipse.jetty..",
        "org.glassfish..",
        "jakarta.ws..",
        "jakarta.servlet..",
        "com.google.inject..",
        "picocli.."
    };

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.bigfleet.proxmox");
    }

    @Test
    void theDomainDependsOnNothingButTheJdk() {
        classes()
                .that()
                .resideInAPackage("dev.bigfleet.proxmox.api..")
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage("dev.bigfleet.proxmox.api..", "java..")
                .check(classes);
    }

    @Test
    void theSpiDependsOnlyOnTheDomain() {
        classes()
                .that()
                .resideInAPackage("dev.bigfleet.proxmox.spi")
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage("dev.bigfleet.proxmox.spi..", "dev.bigfleet.proxmox.api..", "java..")
                .check(classes);
    }

    @Test
    void theEngineHasNoTransportWiringOrSubstrate() {
        noClasses()
                .that()
                .resideInAPackage("dev.bigfleet.proxmox.engine..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(WIRING_AND_TRANSPORT)
                .orShould()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "dev.bigfleet.proxmox.server..",
                        "dev.bigfleet.proxmox.store..",
                        "dev.bigfleet.proxmox.backend..",
                        "dev.bigfleet.proxmox.proto..")
                .check(classes);
    }

    @Test
    void theStoreSeesOnlyTheEnginesStoreInterface() {
        noClasses()
                .that()
                .resideInAPackage("dev.bigfleet.proxmox.store..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(WIRING_AND_TRANSPORT)
                .orShould()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "dev.bigfleet.proxmox.server..",
                        "dev.bigfleet.proxmox.backend..",
                        "dev.bigfleet.proxmox.spi..",
                        "dev.bigfleet.proxmox.proto..")
                .check(classes);
    }

    @Test
    void backendsSeeOnlyTheSpiAndTheDomain() {
        noClasses()
                .that()
                .resideInAPackage("dev.bigfleet.proxmox.backend..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(WIRING_AND_TRANSPORT)
                .orShould()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "dev.bigfleet.proxmox.server..",
                        "dev.bigfleet.proxmox.engine..",
                        "dev.bigfleet.proxmox.store..",
                        "dev.bigfleet.proxmox.proto..")
                .check(classes);
    }

    @Test
    void nothingDependsOnTheServer() {
        noClasses()
                .that()
                .resideOutsideOfPackage("dev.bigfleet.proxmox.server..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.bigfleet.proxmox.server..")
                .check(classes);
    }

    @Test
    void theEntryPointIsNobodysLibrary() {
        noClasses()
                .that()
                .resideInAPackage("dev.bigfleet.proxmox.server.(*)..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.bigfleet.proxmox.server")
                .check(classes);
    }

    @Test
    void noPackageCycles() {
        slices().matching("dev.bigfleet.proxmox.(**)").should().beFreeOfCycles().check(classes);
    }
}
