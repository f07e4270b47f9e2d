package dev.bigfleet.proxmox.backend.fake;

import dev.bigfleet.proxmox.api.GoDuration;
import dev.bigfleet.proxmox.api.InstanceTypeCatalog;
import dev.bigfleet.proxmox.spi.ApiCallRecorder;
import dev.bigfleet.proxmox.spi.BackendContext;
import dev.bigfleet.proxmox.spi.BackendOptions;
import dev.bigfleet.proxmox.spi.CloneSpec;
import dev.bigfleet.proxmox.spi.CreatedVm;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.spi.testkit.BackendFixture;
import dev.bigfleet.proxmox.spi.testkit.GuestFailure;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The fake as the server builds it, through its factory, in fault mode: its fault selectors are how
 * a hook or a drain is made to fail; its simulated cluster is the substrate the scenes are set on.
 */
final class FakeFixture implements BackendFixture {
    private Duration latency = Duration.ofMillis(5);
    private SimulatedCluster cluster;

    @Override
    public ProxmoxBackend createBackend(ApiCallRecorder apiCalls) {
        BackendContext context = new BackendContext(
                "proxmox",
                List.of(Fixtures.NODE, "pve2"),
                InstanceTypeCatalog.builtIn(9000),
                List.of(),
                BackendOptions.of(Map.of("latency", GoDuration.format(latency), "faults", "true")),
                apiCalls);
        MeteredFakeBackend backend = (MeteredFakeBackend) new FakeBackendFactory().create(context);
        cluster = backend.fake().cluster();
        return backend;
    }

    @Override
    public CloneSpec cloneSpec(String machineId) {
        return Fixtures.cloneSpec(machineId);
    }

    @Override
    public void stopVm(CreatedVm vm) {
        cluster.stop(vm.vmid());
    }

    @Override
    public boolean isRunning(CreatedVm vm) {
        return cluster.vm(vm.vmid()).map(SimulatedVm::running).orElse(false);
    }

    @Override
    public boolean exists(CreatedVm vm) {
        return cluster.vm(vm.vmid()).isPresent();
    }

    @Override
    public GuestFailure failBootstrap(CreatedVm vm) {
        return new GuestFailure(Fault.ERROR.clusterId(), 1);
    }

    @Override
    public GuestFailure failDrain(CreatedVm vm) {
        return new GuestFailure(Fault.DRAIN_ERROR.clusterId(), 1);
    }

    /** Each simulated step (clone, start, agent) takes the latency, so one step outlasts the wait. */
    @Override
    public boolean slowDownCreates(Duration atLeast) {
        latency = atLeast;
        return true;
    }
}
