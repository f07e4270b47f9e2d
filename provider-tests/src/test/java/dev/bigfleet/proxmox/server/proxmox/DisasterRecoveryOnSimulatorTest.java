package dev.bigfleet.proxmox.server.proxmox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import dev.bigfleet.proxmox.testing.Launch;
import dev.bigfleet.proxmox.testing.LifecycleClient;
import dev.bigfleet.proxmox.testing.TestingPostgres;
import dev.bigfleet.proxmox.testing.TestingProvider;
import dev.bigfleet.proxmox.testing.TestingProxmoxCluster;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The provider's state is lost, or replaced by an older copy, while its VMs live on: after a
 * restart on the real backend against the simulator every machine comes back in the state and
 * cluster it had (a bound VM as CONFIGURED with its metadata, or the documented digest placeholder
 * when its metadata was too large to keep on the VM), none IDLE that was bound, and no VM is
 * destroyed or cloned again. On SQLite (file removed, file replaced by an older copy) and on
 * PostgreSQL (a database that never saw the machines).
 */
@Tag("recovery")
class DisasterRecoveryOnSimulatorTest {
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final byte[] BLOB = "#!/bin/sh\necho join\n".getBytes(StandardCharsets.UTF_8);
    private static final Map<String, String> METADATA = Map.of("bigfleet.dev/pool", "gpu-a", "team", "ml");
    /** Larger than a VM's description may hold (8 KiB): kept on the VM as its digest only. */
    private static final Map<String, String> LARGE_METADATA = Map.of("blob", "x".repeat(9000));

    private static final String DIGEST_KEY = "bigfleet-proxmox/shard-metadata-sha256";

    @TempDir
    Path dir;

    /** What a machine must look like after the rebuild. */
    private record Seen(MachineState state, String cluster, String host, Map<String, String> metadata) {
        static Seen of(Machine m) {
            return new Seen(m.getState(), m.getCluster(), m.getHost().getRef(), m.getShardMetadataMap());
        }
    }

    private TestingProvider.Builder provider(TestingProxmoxCluster cluster) {
        return TestingProvider.builder()
                .launch(Launch.OWN_JVM)
                .proxmox(cluster)
                .seedCount(6)
                .flags("--reconcile-interval", "1s", "--orphan-grace", "2s");
    }

    /** Four machines: two IDLE, one CONFIGURED with metadata, one CONFIGURED with metadata too large to keep. */
    private static Map<String, Seen> populate(LifecycleClient client) {
        List<String> ids =
                client.list().stream().map(Machine::getId).sorted().limit(4).toList();
        ids.forEach(client::create);
        client.awaitAll(ids, MachineState.MACHINE_STATE_IDLE, WAIT);
        client.configure(ids.get(0), "prod-1", BLOB, METADATA);
        client.configure(ids.get(1), "prod-1", BLOB, LARGE_METADATA);
        client.awaitAll(ids.subList(0, 2), MachineState.MACHINE_STATE_CONFIGURED, WAIT);
        Map<String, Seen> seen = new LinkedHashMap<>();
        ids.forEach(id -> seen.put(id, Seen.of(client.get(id))));
        return seen;
    }

    private static void assertRebuilt(
            LifecycleClient client,
            Map<String, Seen> before,
            Map<String, List<Integer>> vmsBefore,
            TestingProxmoxCluster cluster)
            throws Exception {
        List<String> ids = List.copyOf(before.keySet());
        for (String id : ids) {
            Seen was = before.get(id);
            Seen now = Seen.of(client.get(id));
            assertThat(now.state()).as("state of %s", id).isEqualTo(was.state());
            assertThat(now.cluster()).as("cluster of %s", id).isEqualTo(was.cluster());
            assertThat(now.host()).as("host of %s", id).isEqualTo(was.host());
        }
        assertThat(Seen.of(client.get(ids.get(0))).metadata())
                .as("metadata kept whole")
                .isEqualTo(METADATA);
        assertThat(Seen.of(client.get(ids.get(1))).metadata())
                .as("metadata too large for the VM: its digest, under the documented key")
                .containsOnlyKeys(DIGEST_KEY);
        assertThat(client.metric("bigfleet_proxmox_rebuilt_machines_total{as=\"configured\"}"))
                .hasValue(2.0);
        assertThat(client.metric("bigfleet_proxmox_rebuilt_machines_total{as=\"idle\"}"))
                .hasValue(2.0);
        assertThat(client.adminApi("/api/v1/status"))
                .as("the admin page shows the rebuild")
                .contains("\"rebuild\"")
                .contains(ids.get(0));
        // a few reconcile passes later: nothing was reaped, nothing cloned twice
        Thread.sleep(4000);
        assertThat(cluster.clonesByMachine()).isEqualTo(vmsBefore);
        for (String id : ids) {
            assertThat(client.get(id).getState())
                    .as("state of %s later", id)
                    .isEqualTo(before.get(id).state());
        }
    }

    @Test
    void aRemovedStateFileAndAnOlderCopyAreRebuiltFromTheCluster() throws Exception {
        try (TestingProxmoxCluster cluster = TestingProxmoxCluster.builder()
                .roomy()
                .nodes("pve1", "pve2")
                .latency(Duration.ofMillis(20))
                .start()) {
            Path state = dir.resolve("state.db");
            Path older = Files.createDirectories(dir.resolve("older"));
            Map<String, Seen> before;
            try (TestingProvider provider = provider(cluster).sqliteState(state).build()) {
                // the older copy: taken while every machine was still free
                provider.replica(0).kill();
                copyState(dir, older);
                provider.replica(0).start();
                before = populate(provider.client());
            }
            Map<String, List<Integer>> vmsBefore = cluster.clonesByMachine();
            assertThat(vmsBefore).hasSize(4);

            deleteState(dir);
            try (TestingProvider provider = provider(cluster).sqliteState(state).build()) {
                assertRebuilt(provider.client(), before, vmsBefore, cluster);
            }

            deleteState(dir);
            copyState(older, dir);
            try (TestingProvider provider = provider(cluster).sqliteState(state).build()) {
                assertRebuilt(provider.client(), before, vmsBefore, cluster);
            }
        }
    }

    @Test
    void aPostgresqlStateThatNeverSawTheMachinesIsRebuiltFromTheCluster() throws Exception {
        TestingPostgres postgres = TestingPostgres.shared();
        try (TestingProxmoxCluster cluster = TestingProxmoxCluster.builder()
                .roomy()
                .nodes("pve1", "pve2")
                .latency(Duration.ofMillis(20))
                .start()) {
            Map<String, Seen> before;
            try (TestingProvider provider = provider(cluster)
                    .postgresState(postgres, postgres.createDatabase())
                    .build()) {
                before = populate(provider.client());
            }
            Map<String, List<Integer>> vmsBefore = cluster.clonesByMachine();

            try (TestingProvider provider = provider(cluster)
                    .postgresState(postgres, postgres.createDatabase())
                    .build()) {
                assertRebuilt(provider.client(), before, vmsBefore, cluster);
            }
        }
    }

    private static void copyState(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.list(from)) {
            for (Path f : files.filter(p -> p.getFileName().toString().startsWith("state.db"))
                    .toList()) {
                Files.copy(f, to.resolve(f.getFileName()));
            }
        }
    }

    private static void deleteState(Path in) throws IOException {
        try (Stream<Path> files = Files.list(in)) {
            for (Path f : files.filter(p -> p.getFileName().toString().startsWith("state.db"))
                    .toList()) {
                Files.delete(f);
            }
        }
    }
}
