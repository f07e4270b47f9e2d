package dev.bigfleet.proxmox.backend.proxmox;

import static dev.bigfleet.proxmox.backend.proxmox.SimulatorBackends.POOL;
import static dev.bigfleet.proxmox.spi.testkit.TestOperationContext.forMachine;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.api.InstanceTypeCatalog;
import dev.bigfleet.proxmox.api.Offering;
import dev.bigfleet.proxmox.pvesim.ForeignVm;
import dev.bigfleet.proxmox.pvesim.PowerState;
import dev.bigfleet.proxmox.spi.BootstrapSpec;
import dev.bigfleet.proxmox.spi.CloneSpec;
import dev.bigfleet.proxmox.spi.CreatedVm;
import dev.bigfleet.proxmox.spi.DrainSpec;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.spi.VmTarget;
import dev.bigfleet.proxmox.spi.testkit.TestOperationContext;
import dev.bigfleet.proxmox.testing.TestingProxmoxCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Measures the Proxmox API calls of each operation against the simulator (the figures in
 * BENCHMARKS.md), and holds the reconcile pass to its budget: one call for an unchanged inventory
 * of 1,000 managed VMs. The table is printed and written to {@code target/api-call-figures.md}.
 *
 * <pre>mvn -q -B install -pl backend-proxmox -Dtest=ApiCallFiguresTest -Dsurefire.failIfNoSpecifiedTests=false</pre>
 */
@Tag("paced")
class ApiCallFiguresTest {
    static final int MANAGED = 1000;
    /** Clone 3 units, start 1, guest agent up 5 units after the start, guest commands 1. */
    static final Duration PACED = Duration.ofMillis(250);

    private record Row(String what, int calls, String reference) {}

    @Test
    void callsPerOperationAndPerReconcilePass() throws Exception {
        List<Row> rows = new ArrayList<>(operations(Duration.ZERO, "instant"));
        rows.addAll(operations(PACED, "simulated delays, unit " + PACED.toMillis() + " ms"));
        rows.addAll(localCreates(Duration.ZERO, "instant"));
        rows.addAll(localCreates(PACED, "simulated delays, unit " + PACED.toMillis() + " ms"));
        try (TestingProxmoxCluster cluster =
                TestingProxmoxCluster.builder().pool(POOL).start()) {
            CountingRecorder calls = new CountingRecorder();
            addManagedVms(cluster, MANAGED);
            try (ProxmoxBackend fresh = SimulatorBackends.backend(cluster, "proxmox", calls)) {
                calls.reset();
                cluster.simulator().clearRequests();
                assertThat(fresh.describeManaged()).hasSize(MANAGED);
                rows.add(row(
                        "Reconcile pass, " + MANAGED + " managed VMs, first pass of a new process",
                        calls,
                        cluster,
                        "2 + 3M = " + (2 + 3 * MANAGED)));
                assertThat(fresh.describeManaged()).hasSize(MANAGED);
                Row steady = row(
                        "Reconcile pass, " + MANAGED + " managed VMs, nothing new",
                        calls,
                        cluster,
                        "2 + 3M = " + (2 + 3 * MANAGED));
                rows.add(steady);
                assertThat(steady.calls()).isEqualTo(1);
            }
        }
        String table = render(rows);
        System.out.println(table);
        Files.createDirectories(Path.of("target"));
        Files.writeString(Path.of("target", "api-call-figures.md"), table);
    }

    /** One machine through Create, Configure, Drain and Delete, with the simulator's delays scaled. */
    private static List<Row> operations(Duration latency, String pace) throws Exception {
        List<Row> rows = new ArrayList<>();
        try (TestingProxmoxCluster cluster = TestingProxmoxCluster.builder()
                .pool(POOL)
                .customize(b -> b.latency(latency))
                .start()) {
            CountingRecorder calls = new CountingRecorder();
            try (ProxmoxBackend backend = SimulatorBackends.backend(cluster, "proxmox", calls)) {
                String id = "proxmox/OnDemand/pve.small/pve1/000";
                calls.reset();
                cluster.simulator().clearRequests();
                CreatedVm vm = backend.cloneAndStart(SimulatorBackends.clone(id, "pve1"), forMachine(id));
                rows.add(row("Create (" + pace + ")", calls, cluster, "21 + 3M + polls"));

                VmTarget target = new VmTarget(id, vm.node(), vm.vmid());
                TestOperationContext configure = forMachine(id);
                backend.ensureRunning(target, configure);
                backend.applyBootstrap(new BootstrapSpec(target, "cluster-1", Leaks.BLOB), configure);
                rows.add(row("Configure (" + pace + ")", calls, cluster, "10 + 3M + polls"));

                TestOperationContext drain = forMachine(id);
                backend.ensureRunning(target, drain);
                backend.drain(new DrainSpec(target, "cluster-1", 30), drain);
                rows.add(row("Drain (" + pace + ")", calls, cluster, "9 + 3M + polls"));

                backend.destroy(target, forMachine(id));
                rows.add(row("Delete (" + pace + ")", calls, cluster, "7 + polls"));
            }
        }
        return rows;
    }

    /**
     * A Create on node-local storage with a template per node chosen by tags: a full clone, and a
     * linked one of a type with {@code clone_mode} linked. The first Create on a node also reads its
     * storages (cached until the next reconcile pass), so each is measured on a node of its own.
     */
    private static List<Row> localCreates(Duration latency, String pace) throws Exception {
        List<Row> rows = new ArrayList<>();
        try (TestingProxmoxCluster cluster = TestingProxmoxCluster.builder()
                .localStorage()
                .pool(POOL)
                .customize(b -> b.latency(latency))
                .start()) {
            CountingRecorder calls = new CountingRecorder();
            String tags = "[\"" + SimulatorBackends.TEMPLATE_TAG + "\"]";
            InstanceTypeCatalog catalog = SimulatorBackends.catalog(
                    SimulatorBackends.type("pve.small", Map.of("template_tags", tags)),
                    SimulatorBackends.type("pve.medium", Map.of("template_tags", tags, "clone_mode", "\"linked\"")));
            List<Offering> offerings = new ArrayList<>(SimulatorBackends.onEachNode("pve.small"));
            offerings.addAll(SimulatorBackends.onEachNode("pve.medium"));
            try (ProxmoxBackend backend = SimulatorBackends.backend(
                    cluster, "proxmox", SimulatorBackends.THREE_NODES, catalog, offerings, Map.of(), calls)) {
                backend.describeManaged();
                for (String[] c : new String[][] {{"pve.small", "pve2", "full"}, {"pve.medium", "pve3", "linked"}}) {
                    calls.reset();
                    cluster.simulator().clearRequests();
                    String id = "proxmox/OnDemand/" + c[0] + "/" + c[1] + "/000";
                    backend.cloneAndStart(
                            new CloneSpec(id, catalog.find(c[0]).orElseThrow(), c[1], Map.of()), forMachine(id));
                    rows.add(row(
                            "Create, local storage, " + c[2] + " clone, first on its node since a reconcile (" + pace
                                    + ")",
                            calls,
                            cluster,
                            "fails (one template, target=)"));
                }
                String again = "proxmox/OnDemand/pve.medium/pve3/001";
                calls.reset();
                cluster.simulator().clearRequests();
                backend.cloneAndStart(
                        new CloneSpec(again, catalog.find("pve.medium").orElseThrow(), "pve3", Map.of()),
                        forMachine(again));
                rows.add(row(
                        "Create, local storage, linked clone, storages already read (" + pace + ")",
                        calls,
                        cluster,
                        "fails (one template, target=)"));
            }
        }
        return rows;
    }

    /** The calls since the last row, cross-checked against what the simulator answered. */
    private static Row row(String what, CountingRecorder calls, TestingProxmoxCluster cluster, String reference) {
        int n = calls.total();
        assertThat(cluster.simulator().requests())
                .as("requests the simulator saw for: " + what)
                .hasSize(n);
        System.out.println(what + ": " + calls.snapshot());
        Row r = new Row(what, n, reference);
        calls.reset();
        cluster.simulator().clearRequests();
        return r;
    }

    private static void addManagedVms(TestingProxmoxCluster cluster, int count) {
        Markers markers = new Markers("proxmox");
        for (int i = 0; i < count; i++) {
            String id = String.format("proxmox/OnDemand/pve.small/pve%d/%03d", 1 + i % 2, 100 + i);
            int vmid = 2000 + i;
            cluster.simulator()
                    .faults()
                    .createForeignVm(ForeignVm.of(vmid, i % 2 == 0 ? "pve1" : "pve2")
                            .withName(Markers.vmName("pve.small", id))
                            .withTags(markers.tagsFor(id).wire())
                            .withDescription(markers.description(id, "op-" + i).render())
                            .withPower(PowerState.RUNNING)
                            .inPool(POOL));
        }
    }

    private static String render(List<Row> rows) {
        StringBuilder out = new StringBuilder("| operation | API calls | reference (§5.9; M = managed VMs) |\n")
                .append("|---|---:|---|\n");
        for (Row r : rows) {
            out.append("| ")
                    .append(r.what())
                    .append(" | ")
                    .append(r.calls())
                    .append(" | ")
                    .append(r.reference())
                    .append(" |\n");
        }
        return out.toString();
    }
}
