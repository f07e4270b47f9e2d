package dev.bigfleet.proxmox.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.proto.v1alpha1.CreateRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.ListFilter;
import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import dev.bigfleet.proxmox.pvesim.NodeSpec;
import dev.bigfleet.proxmox.pvesim.PveSimulator;
import dev.bigfleet.proxmox.pvesim.StorageSpec;
import dev.bigfleet.proxmox.pvesim.TemplateSpec;
import dev.bigfleet.proxmox.testing.TestingProvider;
import dev.bigfleet.proxmox.testing.TestingProxmoxCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A burst of 30 Creates (10 per node) on three nodes with node-local LVM-thin and a template per
 * node, through the full provider over gRPC, against the simulator with its delays on: the time
 * until every machine is IDLE, full clones against linked ones, and the API calls it took. Not part
 * of the normal test run (the name matches no surefire include):
 *
 * <pre>mvn -B -pl benchmarks -am test -Dtest=CloneBurstBenchmark -Dsurefire.failIfNoSpecifiedTests=false</pre>
 *
 * Prints a Markdown table and writes it to {@code target/clone-burst.md}.
 */
class CloneBurstBenchmark {
    static final int PER_NODE = 10;
    static final List<String> NODES = List.of("pve1", "pve2", "pve3");
    /** The simulator's unit: a full clone of the 32 GiB template takes 3, a linked one 0.5. */
    static final Duration UNIT = Duration.ofSeconds(1);

    private record Row(String mode, double seconds, int calls, int clones) {}

    @Test
    void thirtyCreatesOnThreeNodesReachIdle(@TempDir Path dir) throws Exception {
        List<Row> rows = new ArrayList<>();
        for (String mode : List.of("full", "linked")) {
            rows.add(burst(mode, Files.createDirectories(dir.resolve(mode))));
        }
        StringBuilder table = new StringBuilder(
                        "| clone mode | 30 Creates to IDLE, s | API calls | per Create | clone tasks |\n")
                .append("|---|---:|---:|---:|---:|\n");
        for (Row r : rows) {
            table.append(String.format(
                    Locale.ROOT,
                    "| %s | %.1f | %d | %.1f | %d |%n",
                    r.mode(),
                    r.seconds(),
                    r.calls(),
                    r.calls() / (double) (PER_NODE * NODES.size()),
                    r.clones()));
        }
        System.out.println(table);
        Files.createDirectories(Path.of("target"));
        Files.writeString(Path.of("target", "clone-burst.md"), table.toString());
    }

    private static Row burst(String mode, Path dir) throws Exception {
        TestingProxmoxCluster.Builder cluster = TestingProxmoxCluster.builder()
                .storage(StorageSpec.local())
                .storage(StorageSpec.localLvm().withCapacityGib(4096))
                .latency(UNIT);
        StringBuilder offerings = new StringBuilder("[");
        for (int i = 0; i < NODES.size(); i++) {
            cluster.node(NodeSpec.of(NODES.get(i)).withCapacity(64, 1L << 40));
            cluster.template(TemplateSpec.of(9001 + i, NODES.get(i))
                    .withStorage("local-lvm")
                    .withTags("bigfleet-template"));
            offerings
                    .append(i > 0 ? "," : "")
                    .append("{\"instance_type\":\"pve.small\",\"zone\":\"")
                    .append(NODES.get(i))
                    .append("\",\"count\":")
                    .append(PER_NODE)
                    .append('}');
        }
        Path offeringsFile = dir.resolve("offerings.json");
        Files.writeString(offeringsFile, offerings + "]", StandardCharsets.UTF_8);
        try (TestingProxmoxCluster simulated = cluster.start();
                TestingProvider provider = TestingProvider.builder()
                        .noHttp()
                        .proxmox(simulated)
                        .flags(
                                "--offerings",
                                offeringsFile.toString(),
                                "--template-tags",
                                "bigfleet-template",
                                "--clone-mode",
                                mode)
                        .build()) {
            PveSimulator sim = simulated.simulator();
            var stub = provider.grpc();
            sim.clearRequests();
            long start = System.nanoTime();
            for (String node : NODES) {
                for (int i = 0; i < PER_NODE; i++) {
                    stub.create(CreateRequest.newBuilder()
                            .setMachineId(String.format(Locale.ROOT, "proxmox/OnDemand/pve.small/%s/%03d", node, i))
                            .build());
                }
            }
            while (true) {
                List<Machine> all = stub.list(ListFilter.newBuilder().build()).getMachinesList();
                assertThat(all).noneMatch(m -> m.getState() == MachineState.MACHINE_STATE_FAILED);
                if (all.stream().allMatch(m -> m.getState() == MachineState.MACHINE_STATE_IDLE)) {
                    break;
                }
                assertThat(System.nanoTime() - start).isLessThan(TimeUnit.MINUTES.toNanos(8));
                Thread.sleep(100);
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            int clones = (int)
                    sim.tasks().stream().filter(t -> t.type().equals("qmclone")).count();
            return new Row(mode, seconds, sim.requests().size(), clones);
        }
    }
}
