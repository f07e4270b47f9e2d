package dev.bigfleet.proxmox.engine;

import dev.bigfleet.proxmox.api.HostRef;
import dev.bigfleet.proxmox.api.InstanceType;
import dev.bigfleet.proxmox.api.InstanceTypeCatalog;
import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.api.TransitionKind;
import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.BindingRecorder;
import dev.bigfleet.proxmox.spi.BootstrapSpec;
import dev.bigfleet.proxmox.spi.CloneSpec;
import dev.bigfleet.proxmox.spi.CreatedVm;
import dev.bigfleet.proxmox.spi.DrainSpec;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.spi.ReadinessGate;
import dev.bigfleet.proxmox.spi.VmBinding;
import dev.bigfleet.proxmox.spi.VmTarget;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The substrate side of each transition: which backend calls it makes, and what its success
 * changes on the machine (the post-effect).
 */
public final class TransitionWork {
    private final ProxmoxBackend backend;
    private final InstanceTypeCatalog catalog;
    private final String providerLabel;

    @Inject
    public TransitionWork(ProxmoxBackend backend, InventoryPlan plan) {
        this.backend = backend;
        this.catalog = plan.catalog();
        this.providerLabel = plan.providerLabel();
    }

    ProxmoxBackend backend() {
        return backend;
    }

    /**
     * Runs the backend work for {@code kind} on the machine as it was at accept.
     *
     * @return the post-effect to apply if the result is still wanted
     */
    UnaryOperator<Machine> run(
            TransitionKind kind,
            Machine atAccept,
            byte[] bootstrapBlob,
            long gracePeriodSeconds,
            TransitionContext context)
            throws BackendException {
        switch (kind) {
            case CREATE:
                return create(atAccept, context);
            case CONFIGURE:
                return configure(atAccept, bootstrapBlob, context);
            case DRAIN:
                return drain(atAccept, gracePeriodSeconds, context);
            default:
                return delete(atAccept, context);
        }
    }

    private UnaryOperator<Machine> create(Machine m, TransitionContext context) throws BackendException {
        InstanceType type = catalog.find(m.instanceType())
                .orElseThrow(() -> new BackendException("create: unknown instance_type \"" + m.instanceType() + "\""));
        CreatedVm vm = backend.cloneAndStart(new CloneSpec(m.id(), type, m.zone(), m.labels()), context);
        HostRef host = HostRef.of(providerLabel, vm.node(), vm.vmid());
        Map<String, String> allocatable = type.allocatable();
        return done -> done.toBuilder()
                .state(TransitionKind.CREATE.target())
                .host(host)
                .allocatable(allocatable)
                .build();
    }

    private UnaryOperator<Machine> configure(Machine m, byte[] blob, TransitionContext context)
            throws BackendException {
        VmTarget target = target(m);
        backend.ensureRunning(target, context);
        // kept on the VM before the blob goes in: a node that may have joined is never rebuilt as free
        Optional<BindingRecorder> bindings = backend.bindings();
        if (bindings.isPresent()) {
            bindings.get().recordBinding(target, VmBinding.of(m.cluster(), Instant.now(), m.shardMetadata()), context);
        }
        context.bootstrapCalled();
        try {
            backend.applyBootstrap(new BootstrapSpec(target, m.cluster(), blob), context);
        } catch (BackendException e) {
            throw sameKind(e, BlobRedaction.redact(e.getMessage(), blob), e.bootstrapStarted());
        }
        Optional<ReadinessGate> readiness = backend.readiness();
        if (readiness.isPresent()) {
            try {
                readiness.get().awaitNodeReady(target, m.cluster(), context);
            } catch (BackendException e) {
                throw sameKind(e, "node readiness: " + e.getMessage(), true);
            }
        }
        return done -> done.withState(TransitionKind.CONFIGURE.target());
    }

    private UnaryOperator<Machine> drain(Machine m, long grace, TransitionContext context) throws BackendException {
        VmTarget target = target(m);
        backend.ensureRunning(target, context);
        backend.drain(new DrainSpec(target, m.cluster(), grace), context);
        Optional<BindingRecorder> bindings = backend.bindings();
        if (bindings.isPresent()) {
            bindings.get().clearBinding(target, context);
        }
        return done -> done.toBuilder()
                .state(TransitionKind.DRAIN.target())
                .cluster("")
                .shardMetadata(Map.of())
                .build();
    }

    private UnaryOperator<Machine> delete(Machine m, TransitionContext context) throws BackendException {
        backend.destroy(target(m), context);
        return done -> done.toBuilder()
                .state(TransitionKind.DELETE.target())
                .host(HostRef.NONE)
                .build();
    }

    /** {@code e} with another message, still transient if it was. */
    private static BackendException sameKind(BackendException e, String message, boolean bootstrapStarted) {
        if (e.isTransient()) {
            return BackendException.transientFailure(message, e.getCause());
        }
        return bootstrapStarted
                ? BackendException.afterBootstrapStarted(message, e.getCause())
                : new BackendException(message, e.getCause());
    }

    private static VmTarget target(Machine m) throws BackendException {
        long vmid = m.host().vmid();
        if (m.host().node().isEmpty() || vmid < 0) {
            throw new BackendException("machine " + m.id() + " has no usable host ref \""
                    + m.host().ref() + "\"");
        }
        return new VmTarget(m.id(), m.host().node(), vmid);
    }
}
