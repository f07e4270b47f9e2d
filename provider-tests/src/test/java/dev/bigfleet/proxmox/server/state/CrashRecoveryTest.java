package dev.bigfleet.proxmox.server.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.proto.v1alpha1.CapacityProviderGrpc.CapacityProviderBlockingStub;
import dev.bigfleet.proxmox.proto.v1alpha1.ListFilter;
import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.testing.AcknowledgedChanges;
import dev.bigfleet.proxmox.testing.Launch;
import dev.bigfleet.proxmox.testing.LifecycleCallers;
import dev.bigfleet.proxmox.testing.TestingProvider;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Concurrent clients drive random lifecycle calls against a provider process with {@code --state}
 * while it is SIGKILLed at random moments. After every restart, every acknowledged change is still
 * there (the machine is in that transition, at its target, moved on by the one call that was in
 * flight, or FAILED as interrupted), every fence mark holds, no operation id is handed out twice,
 * and no machine is lost or duplicated. {@code -Dcrash.cycles=N} runs a longer soak.
 */
@Tag("recovery")
class CrashRecoveryTest {
    private static final int CLIENTS = 8;
    private static final int MACHINES_PER_CLIENT = 12;
    private static final int CYCLES = Integer.getInteger("crash.cycles", 20);

    @TempDir
    Path dir;

    private final AcknowledgedChanges changes =
            AcknowledgedChanges.ofOneProvider("crash-cluster", Duration.ofSeconds(5));
    private volatile long epoch = 1;

    @Test
    void acknowledgedChangesSurviveRepeatedKills() throws Exception {
        try (TestingProvider provider = TestingProvider.builder()
                .launch(Launch.OWN_JVM)
                .noHttp()
                .fakeLatency(Duration.ofMillis(30))
                .seedCount(CLIENTS * MACHINES_PER_CLIENT)
                .sqliteState(dir.resolve("state.db"))
                .build()) {
            CapacityProviderBlockingStub stub = provider.grpc().withWaitForReady();
            List<String> ids = stub.list(ListFilter.getDefaultInstance()).getMachinesList().stream()
                    .map(Machine::getId)
                    .sorted()
                    .toList();
            assertThat(ids).hasSize(CLIENTS * MACHINES_PER_CLIENT);
            try (LifecycleCallers clients = LifecycleCallers.start(
                    changes,
                    ids,
                    CLIENTS,
                    MACHINES_PER_CLIENT,
                    // without waiting for the connection: while the provider is down a call fails at
                    // once, so the callers park as soon as the test pauses them
                    LifecycleCallers.to(provider.grpc(), Duration.ofMillis(20)),
                    () -> epoch)) {
                Random random = new Random(42);
                for (int cycle = 1; cycle <= CYCLES; cycle++) {
                    Thread.sleep(300 + random.nextInt(900));
                    provider.kill();
                    clients.pause();
                    provider.replica(0).start();
                    changes.verify(stub, new HashSet<>(ids), "cycle " + cycle);
                    if (!changes.violations().isEmpty()) {
                        throw new AssertionError("after kill " + cycle + ": " + changes.violations());
                    }
                    epoch = cycle + 1L;
                    clients.resume();
                }
                assertThat(changes.violations()).as("violations").isEmpty();
                assertThat(clients.acknowledged()).as("acknowledged calls").isGreaterThan(CYCLES * 5);
            }
        }
    }
}
