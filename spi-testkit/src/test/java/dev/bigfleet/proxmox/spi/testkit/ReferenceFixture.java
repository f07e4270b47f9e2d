package dev.bigfleet.proxmox.spi.testkit;

import dev.bigfleet.proxmox.api.InstanceType;
import dev.bigfleet.proxmox.spi.ApiCallRecorder;
import dev.bigfleet.proxmox.spi.CloneSpec;
import dev.bigfleet.proxmox.spi.CreatedVm;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

/** The fixture of {@link ReferenceBackend}, with the defects it is to have. */
final class ReferenceFixture implements BackendFixture {
    private static final InstanceType TYPE = new InstanceType("ref.small", 1, 1024, 9000);

    private final Set<Defect> defects;
    private Duration createDelay = Duration.ZERO;
    private ReferenceBackend backend;

    ReferenceFixture(Set<Defect> defects) {
        this.defects = defects;
    }

    @Override
    public ProxmoxBackend createBackend(ApiCallRecorder apiCalls) {
        backend = new ReferenceBackend(defects, createDelay, apiCalls);
        return backend;
    }

    @Override
    public CloneSpec cloneSpec(String machineId) {
        return new CloneSpec(machineId, TYPE, ReferenceBackend.NODE, Map.of());
    }

    @Override
    public void stopVm(CreatedVm vm) {
        backend.stop(vm.vmid());
    }

    @Override
    public boolean isRunning(CreatedVm vm) {
        return backend.isRunning(vm.vmid());
    }

    @Override
    public boolean exists(CreatedVm vm) {
        return backend.exists(vm.vmid());
    }

    @Override
    public GuestFailure failBootstrap(CreatedVm vm) {
        backend.failHook(vm.vmid());
        return new GuestFailure("reference-cluster", 5);
    }

    @Override
    public GuestFailure failDrain(CreatedVm vm) {
        backend.failDrain(vm.vmid());
        return new GuestFailure("reference-cluster", 2);
    }

    @Override
    public boolean slowDownCreates(Duration atLeast) {
        createDelay = atLeast;
        return true;
    }
}
