package dev.bigfleet.proxmox.pvesim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A VM with {@code hugepages} starts only as qemu-server starts it: with NUMA, on a node that
 * offers the page size, and while the node still has enough pages beside the running VMs holding
 * some; each refusal is the start task's failure in qemu-server's words.
 */
class HugepagesTest {
    private static PveSimulator start() throws Exception {
        return PveSimulator.start(SimulatorConfig.builder()
                .node(NodeSpec.of("pve1").withHugepages(Map.of(2, 3072L)))
                .node(NodeSpec.of("pve2").withHugepages(Map.of()))
                .template(TemplateSpec.of(9000, "pve1").withStorage("local-lvm"))
                .token("root@pam!admin=s3cret")
                .build());
    }

    private static int clone(TestClient c, PveSimulator sim, String node, Map<String, String> config) {
        String id = c.get("/cluster/nextid").data().asText();
        assertThat(c.run(c.post("/nodes/pve1/qemu/9000/clone", "newid", id, "full", "1")))
                .isEqualTo("OK");
        int vmid = Integer.parseInt(id);
        config.forEach((k, v) -> sim.faults().setConfigKeyNotHotplugged(vmid, k, v));
        if (!node.equals("pve1")) {
            sim.faults().migrateVm(vmid, node);
        }
        return vmid;
    }

    private static String started(TestClient c, String node, int vmid) {
        return c.run(c.post("/nodes/" + node + "/qemu/" + vmid + "/status/start"));
    }

    @Test
    void aVmGetsItsPagesOnlyWhileTheNodeHasThemAndWithNuma() throws Exception {
        try (PveSimulator sim = start()) {
            TestClient c = TestClient.of(sim);
            int noNuma = clone(c, sim, "pve1", Map.of("hugepages", "2", "memory", "2048"));
            assertThat(started(c, "pve1", noNuma))
                    .isEqualTo("numa needs to be enabled to use hugepages at"
                            + " /usr/share/perl5/PVE/QemuServer/Memory.pm line 388.");

            int first = clone(c, sim, "pve1", Map.of("hugepages", "2", "numa", "1", "memory", "4096"));
            assertThat(started(c, "pve1", first)).isEqualTo("OK");
            int second = clone(c, sim, "pve1", Map.of("hugepages", "any", "numa", "1", "memory", "4096"));
            assertThat(started(c, "pve1", second))
                    .as("2048 of the node's 3072 pages are taken; 'any' takes 2 MiB pages, the only size there")
                    .isEqualTo("hugepage allocation failed at /usr/share/perl5/PVE/QemuServer/Memory.pm line 731.");
            int giant = clone(c, sim, "pve1", Map.of("hugepages", "1024", "numa", "1", "memory", "4096"));
            assertThat(started(c, "pve1", giant)).isEqualTo("your system doesn't support hugepages of 1024 MB");
            int odd = clone(c, sim, "pve1", Map.of("hugepages", "2", "numa", "1", "memory", "1025"));
            assertThat(started(c, "pve1", odd))
                    .isEqualTo("memory size '1025' is not a positive even integer; cannot use for hugepages");

            int none = clone(c, sim, "pve2", Map.of("hugepages", "2", "numa", "1", "memory", "2048"));
            assertThat(started(c, "pve2", none)).isEqualTo("your system doesn't support hugepages");
        }
    }
}
