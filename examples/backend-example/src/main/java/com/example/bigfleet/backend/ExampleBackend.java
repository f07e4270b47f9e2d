package com.example.bigfleet.backend;

import dev.bigfleet.proxmox.spi.ApiCallRecorder;
import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.BootstrapSpec;
import dev.bigfleet.proxmox.spi.CloneSpec;
import dev.bigfleet.proxmox.spi.CreatedVm;
import dev.bigfleet.proxmox.spi.DrainSpec;
import dev.bigfleet.proxmox.spi.ManagedVm;
import dev.bigfleet.proxmox.spi.NodeStatus;
import dev.bigfleet.proxmox.spi.OperationContext;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.spi.ReadinessGate;
import dev.bigfleet.proxmox.spi.VmTarget;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The example backend over {@link ExampleNodes}. It follows the SPI's rules the way a backend of a
 * real substrate must: a Create adopts the machine's VM instead of cloning twice, every call on a
 * VM first proves the VM carries the target's machine id, a VM already gone counts as destroyed,
 * waits stop at cancellation, messages are one line without the blob, and each call is reported to
 * the provider's {@link ApiCallRecorder} under a fixed op name.
 */
final class ExampleBackend implements ProxmoxBackend {
    private static final Logger log = LoggerFactory.getLogger(ExampleBackend.class);

    private final ExampleNodes nodes;
    private final Duration bootDelay;
    private final ApiCallRecorder calls;

    ExampleBackend(ExampleNodes nodes, Duration bootDelay, ApiCallRecorder calls) {
        this.nodes = Objects.requireNonNull(nodes, "nodes");
        this.bootDelay = Objects.requireNonNull(bootDelay, "bootDelay");
        this.calls = Objects.requireNonNull(calls, "calls");
    }

    /** The substrate, for tests that set scenes up behind the backend's back. */
    ExampleNodes substrate() {
        return nodes;
    }

    @Override
    public CreatedVm cloneAndStart(CloneSpec spec, OperationContext context) throws BackendException {
        return timed("CloneVM", () -> {
            String what = "create " + spec.instanceType().name() + " on " + spec.zone();
            CancellableWait.check(what, context);
            Optional<ExampleVm> owned = nodes.ownedBy(spec.machineId());
            ExampleVm vm;
            if (owned.isPresent()) {
                // an earlier attempt got this far: take its VM over, never clone a second one
                vm = owned.get();
                log.debug("example: adopting VM {} for machine {}", vm.hostRef(), spec.machineId());
            } else {
                vm = prefixed(what, () -> nodes.cloneFor(spec.machineId(), spec.zone(), spec.instanceType()));
            }
            boot(what, vm, context);
            return new CreatedVm(vm.node(), vm.vmid());
        });
    }

    @Override
    public void ensureRunning(VmTarget target, OperationContext context) throws BackendException {
        timed("EnsureRunning", () -> {
            String what = "ensure running";
            CancellableWait.check(what, context);
            boot(what, owned(what, target), context);
            return null;
        });
    }

    @Override
    public void applyBootstrap(BootstrapSpec spec, OperationContext context) throws BackendException {
        timed("Configure", () -> {
            String what = "configure";
            CancellableWait.check(what, context);
            ExampleVm vm = running(what, owned(what, spec.target()));
            // the blob is a credential: only its size is ever looked at
            log.debug("example: delivering {} bootstrap bytes to VM {}", spec.bootstrapBlob().length, vm.hostRef());
            int exit = nodes.bootstrapExitCode(vm.vmid());
            if (exit != 0) {
                throw new BackendException(what + ": bootstrap hook on VM " + vm.hostRef() + " exited with code "
                        + exit);
            }
            nodes.setClusterId(vm.vmid(), spec.clusterId());
            return null;
        });
    }

    /** The node is ready once its guest's bootstrap joined the cluster asked about. */
    @Override
    public Optional<ReadinessGate> readiness() {
        return Optional.of((target, clusterId, context) -> timed("AwaitNodeReady", () -> {
            String what = "readiness";
            CancellableWait.check(what, context);
            ExampleVm vm = owned(what, target);
            if (!clusterId.equals(vm.clusterId())) {
                throw new BackendException(what + ": the node of VM " + vm.hostRef() + " has not joined cluster \""
                        + clusterId + "\"");
            }
            return null;
        }));
    }

    @Override
    public void drain(DrainSpec spec, OperationContext context) throws BackendException {
        timed("Drain", () -> {
            String what = "drain";
            CancellableWait.check(what, context);
            ExampleVm vm = running(what, owned(what, spec.target()));
            int exit = nodes.drainExitCode(vm.vmid());
            if (exit != 0) {
                throw new BackendException(what + ": draining the node of VM " + vm.hostRef() + " exited with code "
                        + exit);
            }
            nodes.setClusterId(vm.vmid(), null);
            return null;
        });
    }

    @Override
    public void destroy(VmTarget target, OperationContext context) throws BackendException {
        timed("DeleteVM", () -> {
            String what = "delete";
            CancellableWait.check(what, context);
            Optional<ExampleVm> present = nodes.vm(target.vmid());
            if (present.isEmpty()) {
                return null; // already gone: the goal is reached
            }
            if (!present.get().machineId().equals(target.machineId())) {
                return null; // its VMID is another machine's now: gone too, and that VM is left alone
            }
            ExampleVm vm = present.get();
            nodes.remove(vm.vmid());
            log.debug("example: destroyed VM {} of machine {}", vm.hostRef(), vm.machineId());
            return null;
        });
    }

    @Override
    public List<ManagedVm> describeManaged() throws BackendException {
        return timed("DescribeManaged", () -> nodes.all().stream().map(ExampleVm::toManaged).toList());
    }

    @Override
    public List<NodeStatus> nodes() throws BackendException {
        return timed("NodeStatus", nodes::statuses);
    }

    /** Starts a stopped VM and waits until it has booted; a running VM is left as it is. */
    private void boot(String what, ExampleVm vm, OperationContext context) throws BackendException {
        if (vm.running()) {
            return;
        }
        CancellableWait.sleep(bootDelay, what + ": boot VM " + vm.hostRef(), context);
        if (nodes.setRunning(vm.vmid(), true).isEmpty()) {
            throw new BackendException(what + ": VM " + vm.hostRef() + " was destroyed while it booted");
        }
    }

    /** Finds the target's VM by VMID and proves it is the machine's. */
    private ExampleVm owned(String what, VmTarget target) throws BackendException {
        ExampleVm vm = nodes.vm(target.vmid()).orElseThrow(() -> new BackendException(what + ": VM "
                + target.hostRef() + " of machine " + target.machineId() + " does not exist"));
        return carriesMachine(what, target, vm);
    }

    private static ExampleVm carriesMachine(String what, VmTarget target, ExampleVm vm) throws BackendException {
        if (!vm.machineId().equals(target.machineId())) {
            throw new BackendException(what + ": VM " + vm.hostRef() + " carries machine id \"" + vm.machineId()
                    + "\", not \"" + target.machineId() + "\"; it was left untouched");
        }
        return vm;
    }

    private static ExampleVm running(String what, ExampleVm vm) throws BackendException {
        if (!vm.running()) {
            throw new BackendException(what + ": VM " + vm.hostRef() + " is stopped");
        }
        return vm;
    }

    /** One call of the SPI, reported as one API call whatever its outcome. */
    private <T> T timed(String op, Work<T> work) throws BackendException {
        long start = System.nanoTime();
        boolean ok = false;
        try {
            T result = work.run();
            ok = true;
            return result;
        } catch (UncheckedIOException e) {
            // the state file could not be written: a later retry may succeed
            throw BackendException.transientFailure(op + ": " + e.getMessage(), e);
        } finally {
            calls.record(op, ok, Duration.ofNanos(System.nanoTime() - start));
        }
    }

    private static <T> T prefixed(String what, Work<T> work) throws BackendException {
        try {
            return work.run();
        } catch (BackendException e) {
            throw new BackendException(what + ": " + e.getMessage(), e);
        }
    }

    @FunctionalInterface
    private interface Work<T> {
        T run() throws BackendException;
    }
}
