package dev.bigfleet.proxmox.server.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import dev.bigfleet.proxmox.testing.Launch;
import dev.bigfleet.proxmox.testing.LifecycleClient;
import dev.bigfleet.proxmox.testing.TestingProvider;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * FAILED machines recover, seen from outside a provider process on the fake backend with a state
 * file and a short {@code --failed-retention}, with a SIGKILL and a restart in the middle: an
 * unbound machine (failed in Create) leaves the inventory and its slot's next machine, SPECULATIVE,
 * takes its place and creates, and holds the slot after a restart; a bound one (failed in
 * Drain) is drained again before its VM is destroyed, and stays FAILED, counted as needing
 * attention, for as long as that drain fails, across a restart too (read with the cleanup off);
 * a machine cleaned up no longer counts in the hourly cost. The fake keeps its VMs in memory, so
 * after a restart a VM it held is gone, and a FAILED machine whose VM is gone recovers without a
 * drain.
 */
@Tag("recovery")
class FailedRecoveryTest {
    private static final Duration RECOVERY = Duration.ofSeconds(60);
    private static final byte[] BLOB = "#!/bin/sh\necho join\n".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    /** @param retention {@code --failed-retention}: long enough for a restart to fit in it */
    private TestingProvider provider(String retention, String... extra) throws Exception {
        return TestingProvider.builder()
                .launch(Launch.OWN_JVM)
                .fakeFaults()
                .fakeLatency(Duration.ofMillis(100))
                .seedCount(8)
                .sqliteState(dir.resolve("state.db"))
                .flags("--failed-retention", retention, "--reconcile-interval", "1s")
                .flags(extra)
                .build();
    }

    @Test
    void anUnboundFailedMachineLeavesAfterARestartAndTheRetentionAndANewMachineOfItsSlotCreates() throws Exception {
        String id;
        // a Create timeout shorter than a clone plus a start: the Create fails, unbound
        try (TestingProvider first = provider("15s", "--create-timeout", "150ms")) {
            LifecycleClient client = first.client();
            id = ordinary(client).get(0);
            client.create(id);
            Machine failed = client.awaitState(id, MachineState.MACHINE_STATE_FAILED, RECOVERY);
            assertThat(failed.getLastError()).contains("timed out");
            first.kill();
        }

        try (TestingProvider second = provider("15s")) {
            LifecycleClient client = second.client();
            assertThat(client.get(id).getState())
                    .as("FAILED until its retention ends")
                    .isEqualTo(MachineState.MACHINE_STATE_FAILED);

            Machine recovered = client.awaitReplaced(id, RECOVERY);

            assertThat(recovered.getId()).isEqualTo(id + ".2");
            assertThat(recovered.getLastError()).isEmpty();
            assertThat(recovered.getHost().getRef()).isEmpty();
            assertThat(recovered.getCluster()).isEmpty();
            assertThat(client.metric("bigfleet_proxmox_failed_recovered_total{kind=\"create\"}"))
                    .hasValue(1.0);
            assertThatThrownBy(() -> client.get(id))
                    .as("the FAILED machine left the inventory")
                    .hasMessageContaining("NOT_FOUND");
            second.kill();
        }

        try (TestingProvider third = provider("15s")) {
            LifecycleClient client = third.client();
            assertThat(client.list())
                    .as("after a restart the slot is still held by its new machine, once")
                    .extracting(Machine::getId)
                    .contains(id + ".2")
                    .doesNotContain(id);
            assertThat(client.get(id + ".2").getState()).isEqualTo(MachineState.MACHINE_STATE_SPECULATIVE);
            client.create(id + ".2");
            Machine created = client.awaitState(id + ".2", MachineState.MACHINE_STATE_IDLE, RECOVERY);
            assertThat(created.getHost().getRef()).isNotEmpty();
        }
    }

    @Test
    void aBoundFailedMachineIsDrainedBeforeItIsDestroyedAndStaysFailedWhileItsDrainFails() throws Exception {
        String once;
        String always;
        try (TestingProvider first = provider("4s")) {
            LifecycleClient client = first.client();
            List<String> ids = ordinary(client);
            once = ids.get(0);
            always = ids.get(1);
            for (String id : List.of(once, always)) {
                client.create(id);
            }
            client.awaitAll(List.of(once, always), MachineState.MACHINE_STATE_IDLE, RECOVERY);
            client.configure(once, "fault-drain-error-once", BLOB);
            client.configure(always, "fault-drain-error", BLOB);
            client.awaitAll(List.of(once, always), MachineState.MACHINE_STATE_CONFIGURED, RECOVERY);
            client.drain(once, 5);
            client.drain(always, 5);
            client.awaitAll(List.of(once, always), MachineState.MACHINE_STATE_FAILED, RECOVERY);
            double both =
                    client.get(once).getPricePerHour() + client.get(always).getPricePerHour();
            assertThat(client.metric("bigfleet_proxmox_hourly_cost_usd").orElseThrow())
                    .as("FAILED machines holding VMs count")
                    .isCloseTo(both, within(1e-9));

            // the drain that failed once succeeds when the cleanup drains again: then the VM is destroyed
            Machine recovered = client.awaitReplaced(once, RECOVERY);
            assertThat(recovered.getHost().getRef()).isEmpty();
            assertThat(client.metric("bigfleet_proxmox_failed_recovered_total{kind=\"drain\"}"))
                    .hasValue(1.0);

            // the drain that always fails keeps the machine FAILED, its VM alive, and an operator warned
            await().atMost(RECOVERY)
                    .until(() -> client.metric("bigfleet_proxmox_failed_needs_attention")
                                    .orElse(0)
                            == 1.0);
            // a third failed attempt: the next one waits four times the retention, long enough to restart
            await().atMost(RECOVERY)
                    .until(() -> client.get(always).getLastError().contains("cleanup attempt 3"));
            Machine stuck = client.get(always);
            assertThat(stuck.getState()).isEqualTo(MachineState.MACHINE_STATE_FAILED);
            assertThat(stuck.getHost().getRef()).isNotEmpty();
            assertThat(stuck.getLastError())
                    .contains("cleanup attempt 3 failed")
                    .contains("cannot evict pod");
            assertThat(client.metric("bigfleet_proxmox_hourly_cost_usd").orElseThrow())
                    .isCloseTo(stuck.getPricePerHour(), within(1e-9));
            first.kill();
        }

        // restarted with the cleanup switched off, so nothing can become due before the count is read
        try (TestingProvider second = provider("0")) {
            LifecycleClient client = second.client();
            assertThat(client.metric("bigfleet_proxmox_failed_needs_attention"))
                    .as("the failed cleanups are kept across the restart")
                    .hasValue(1.0);
            assertThat(client.get(always).getLastError()).contains("cleanup attempt 3 failed");
        }

        try (TestingProvider third = provider("4s")) {
            LifecycleClient client = third.client();
            // the fake lost its VMs with the process: nothing is left to drain, so the machine recovers
            Machine recovered = client.awaitReplaced(always, RECOVERY);
            assertThat(recovered.getHost().getRef()).isEmpty();
            assertThat(client.metric("bigfleet_proxmox_hourly_cost_usd")).hasValue(0.0);
            assertThat(client.metric("bigfleet_proxmox_failed_needs_attention")).hasValue(0.0);
            assertThat(client.adminApi("/api/v1/summary")).contains("\"holding_vm\":0");
            client.create(recovered.getId());
            client.awaitState(recovered.getId(), MachineState.MACHINE_STATE_IDLE, RECOVERY);
        }
    }

    /** Slot ids, sorted, without the fault offering fault mode adds (its Creates always fail). */
    private static List<String> ordinary(LifecycleClient client) {
        return client.list().stream()
                .map(Machine::getId)
                .filter(id -> !id.contains("-faults/"))
                .sorted()
                .toList();
    }
}
