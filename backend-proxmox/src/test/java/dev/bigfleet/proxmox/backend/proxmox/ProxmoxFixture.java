package dev.bigfleet.proxmox.backend.proxmox;

import static dev.bigfleet.proxmox.backend.proxmox.SimulatorBackends.POOL;

import dev.bigfleet.proxmox.pvesim.PowerState;
import dev.bigfleet.proxmox.pvesim.TaskKind;
import dev.bigfleet.proxmox.pvesim.VmView;
import dev.bigfleet.proxmox.spi.ApiCallRecorder;
import dev.bigfleet.proxmox.spi.CloneSpec;
import dev.bigfleet.proxmox.spi.CreatedVm;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.spi.testkit.BackendFixture;
import dev.bigfleet.proxmox.spi.testkit.GuestFailure;
import dev.bigfleet.proxmox.testing.TestingProxmoxCluster;
import java.time.Duration;

/**
 * The real backend, built through its factory, against a simulated cluster of its own over HTTPS;
 * scenes are set with the simulator's out-of-band changes and faults.
 */
final class ProxmoxFixture implements BackendFixture {
    private static final String CLUSTER = "contract-cluster";

    private final TestingProxmoxCluster cluster =
            TestingProxmoxCluster.builder().pool(POOL).start();

    @Override
    public ProxmoxBackend createBackend(ApiCallRecorder apiCalls) throws Exception {
        return SimulatorBackends.backend(cluster, "proxmox", apiCalls);
    }

    @Override
    public CloneSpec cloneSpec(String machineId) {
        return SimulatorBackends.clone(machineId, "pve1");
    }

    @Override
    public void stopVm(CreatedVm vm) {
        cluster.simulator().faults().setPower((int) vm.vmid(), PowerState.STOPPED);
    }

    @Override
    public boolean isRunning(CreatedVm vm) {
        return cluster.simulator().vm((int) vm.vmid()).map(VmView::running).orElse(false);
    }

    @Override
    public boolean exists(CreatedVm vm) {
        return cluster.simulator().vm((int) vm.vmid()).isPresent();
    }

    /** The default hook runs the blob, a script whose kubeadm join the guest's stand-in refuses. */
    @Override
    public GuestFailure failBootstrap(CreatedVm vm) {
        cluster.simulator().guest((int) vm.vmid()).kubeadmJoinFails(3, "kubeadm: the join was refused");
        return new GuestFailure(CLUSTER, 3);
    }

    @Override
    public GuestFailure failDrain(CreatedVm vm) {
        cluster.simulator()
                .guest((int) vm.vmid())
                .kubectlDrainFails(2, "error: cannot evict pod as it would violate the pod's disruption budget");
        return new GuestFailure(CLUSTER, 2);
    }

    /** A full clone is a Proxmox task the backend waits for. */
    @Override
    public boolean slowDownCreates(Duration atLeast) {
        cluster.simulator().faults().slowTasks(TaskKind.CLONE, 1, atLeast);
        return true;
    }

    @Override
    public void close() {
        cluster.close();
    }
}
