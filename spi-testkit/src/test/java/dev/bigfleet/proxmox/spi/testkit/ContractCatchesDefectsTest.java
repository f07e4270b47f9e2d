package dev.bigfleet.proxmox.spi.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * The contract tests fail on a backend that breaks the contract, and only then: they are run, as
 * a backend's build would run them, on {@link ReferenceBackend}, once as it is and once with each
 * {@link Defect}.
 */
@Tag("conformance")
class ContractCatchesDefectsTest {
    /** The contract on the reference backend with {@link #defects}; run only through this class. */
    static class ContractOnReference extends BackendContractTest {
        static volatile Set<Defect> defects = Set.of();

        @Override
        protected BackendFixture newFixture() {
            return new ReferenceFixture(defects);
        }
    }

    private static Events contractTests(Set<Defect> defects) {
        ContractOnReference.defects = defects;
        try {
            return EngineTestKit.engine("junit-jupiter")
                    .selectors(selectClass(ContractOnReference.class))
                    .execute()
                    .testEvents();
        } finally {
            ContractOnReference.defects = Set.of();
        }
    }

    private static Set<String> failedTests(Set<Defect> defects) {
        return contractTests(defects).failed().stream()
                .map(e -> ((MethodSource) e.getTestDescriptor().getSource().orElseThrow()).getMethodName())
                .collect(Collectors.toSet());
    }

    @Test
    void aBackendThatKeepsTheContractPassesEveryContractTest() {
        long contractTests = Arrays.stream(BackendContractTest.class.getDeclaredMethods())
                .filter(m -> m.isAnnotationPresent(Test.class))
                .map(Method::getName)
                .count();

        contractTests(Set.of())
                .assertStatistics(stats -> stats.started(contractTests).succeeded(contractTests));
    }

    @ParameterizedTest
    @EnumSource(Defect.class)
    void eachDefectFailsExactlyTheContractTestsItBreaks(Defect defect) {
        assertThat(failedTests(Set.of(defect)))
                .as("contract tests failing on a backend that %s", defect)
                .isEqualTo(defect.caughtBy());
    }
}
