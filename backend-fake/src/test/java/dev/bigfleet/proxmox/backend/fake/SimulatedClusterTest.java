package dev.bigfleet.proxmox.backend.fake;

import static dev.bigfleet.proxmox.backend.fake.Fixtures.SMALL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bigfleet.proxmox.spi.BackendException;
import java.util.List;
import org.junit.jupiter.api.Test;

class SimulatedClusterTest {
    private static final long GIB = 1024L * 1024 * 1024;

    @Test
    void nodesAreReportedOnceInOrder() {
        SimulatedCluster cluster = new SimulatedCluster(List.of("b", "a", "b"));

        assertThat(cluster.nodeNames()).containsExactly("b", "a");
        assertThat(cluster.nodeStatuses()).extracting(s -> s.name()).containsExactly("b", "a");
    }

    @Test
    void withMemoryEnforcedAStartThatDoesNotFitIsRefused() throws Exception {
        // room for two 4 GiB VMs
        SimulatedCluster cluster = new SimulatedCluster(List.of("n1"), new NodeCapacity(9 * GIB, 4), true);
        cluster.start(cluster.cloneFor("m-1", "n1", SMALL).vmid());
        cluster.start(cluster.cloneFor("m-2", "n1", SMALL).vmid());
        SimulatedVm third = cluster.cloneFor("m-3", "n1", SMALL);

        assertThatThrownBy(() -> cluster.start(third.vmid()))
                .isInstanceOf(BackendException.class)
                .hasMessage("start VM n1/103: not enough memory on node n1 (needs 4096 MiB, 1024 MiB free)");

        cluster.stop(101);
        assertThat(cluster.start(third.vmid()).running()).isTrue();
        assertThat(cluster.nodeStatuses().get(0).usedMemoryBytes()).isEqualTo(8 * GIB);
    }

    @Test
    void withoutEnforcementMemoryIsOnlyAccounted() throws Exception {
        SimulatedCluster cluster = new SimulatedCluster(List.of("n1"), new NodeCapacity(GIB, 4), false);

        cluster.start(cluster.cloneFor("m-1", "n1", SMALL).vmid());

        assertThat(cluster.nodeStatuses().get(0).usedMemoryBytes()).isEqualTo(4 * GIB);
    }

    @Test
    void removingAVmFreesItsMemoryAndItsMachine() throws Exception {
        SimulatedCluster cluster = new SimulatedCluster(List.of("n1"));
        long vmid = cluster.start(cluster.cloneFor("m-1", "n1", SMALL).vmid()).vmid();

        assertThat(cluster.remove(vmid)).isTrue();
        assertThat(cluster.remove(vmid)).isFalse();

        assertThat(cluster.vmOwnedBy("m-1")).isEmpty();
        assertThat(cluster.nodeStatuses().get(0).usedMemoryBytes()).isZero();
    }

    @Test
    void joiningAClusterNeedsARunningVm() throws Exception {
        SimulatedCluster cluster = new SimulatedCluster(List.of("n1"));
        SimulatedVm vm = cluster.cloneFor("m-1", "n1", SMALL);

        assertThatThrownBy(() -> cluster.join(vm.vmid(), "c")).hasMessage("VM n1/101 is stopped");
        assertThatThrownBy(() -> cluster.join(999, "c")).hasMessage("VM 999 does not exist");
    }
}
