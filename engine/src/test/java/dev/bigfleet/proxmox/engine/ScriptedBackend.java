package dev.bigfleet.proxmox.engine;

import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.BootstrapSpec;
import dev.bigfleet.proxmox.spi.CloneSpec;
import dev.bigfleet.proxmox.spi.CreatedVm;
import dev.bigfleet.proxmox.spi.DrainSpec;
import dev.bigfleet.proxmox.spi.ManagedVm;
import dev.bigfleet.proxmox.spi.NodeStatus;
import dev.bigfleet.proxmox.spi.OperationContext;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.spi.VmTarget;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A backend whose behaviour each test scripts per machine: succeed at once, fail, throw, block
 * until released, or ignore cancellation and finish late.
 */
final class ScriptedBackend implements ProxmoxBackend {
    enum Script {
        OK,
        FAIL,
        THROW,
        BLOCK,
        LATE_OK
    }

    private final Map<String, Script> scripts = new ConcurrentHashMap<>();
    private final AtomicLong vmids = new AtomicLong(100);
    final AtomicInteger clones = new AtomicInteger();
    final AtomicInteger bootstraps = new AtomicInteger();
    final CountDownLatch release = new CountDownLatch(1);
    final Map<String, byte[]> blobs = new ConcurrentHashMap<>();
    final List<ManagedVm> managed = new java.util.concurrent.CopyOnWriteArrayList<>();
    final List<Long> destroyed = new java.util.concurrent.CopyOnWriteArrayList<>();

    void script(String machineId, Script script) {
        scripts.put(machineId, script);
    }

    private void act(String machineId, OperationContext context) throws BackendException {
        switch (scripts.getOrDefault(machineId, Script.OK)) {
            case FAIL:
                throw new BackendException("scripted failure for " + machineId);
            case THROW:
                throw new IllegalStateException("scripted bug");
            case BLOCK:
                try {
                    release.await();
                } catch (InterruptedException e) {
                    throw new BackendException("interrupted");
                }
                return;
            case LATE_OK:
                long until = context.deadline().toEpochMilli() + 300;
                while (System.currentTimeMillis() < until) {
                    try {
                        Thread.sleep(20);
                    } catch (InterruptedException ignored) {
                        // deliberately ignores cancellation
                    }
                }
                return;
            default:
        }
    }

    @Override
    public CreatedVm cloneAndStart(CloneSpec spec, OperationContext context) throws BackendException {
        clones.incrementAndGet();
        act(spec.machineId(), context);
        return new CreatedVm(spec.zone(), vmids.incrementAndGet());
    }

    @Override
    public void ensureRunning(VmTarget target, OperationContext context) {}

    @Override
    public void applyBootstrap(BootstrapSpec spec, OperationContext context) throws BackendException {
        bootstraps.incrementAndGet();
        blobs.put(spec.target().machineId(), spec.bootstrapBlob());
        act(spec.target().machineId(), context);
    }

    @Override
    public void drain(DrainSpec spec, OperationContext context) throws BackendException {
        act(spec.target().machineId(), context);
    }

    @Override
    public void destroy(VmTarget target, OperationContext context) throws BackendException {
        act(target.machineId(), context);
        destroyed.add(target.vmid());
    }

    @Override
    public List<ManagedVm> describeManaged() {
        return new ArrayList<>(managed);
    }

    @Override
    public List<NodeStatus> nodes() {
        return List.of();
    }
}
