package dev.bigfleet.proxmox.server.plugin;

import dev.bigfleet.proxmox.spi.ApiStatus;
import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.BindingRecorder;
import dev.bigfleet.proxmox.spi.BootstrapSpec;
import dev.bigfleet.proxmox.spi.CloneSpec;
import dev.bigfleet.proxmox.spi.CreatedVm;
import dev.bigfleet.proxmox.spi.DrainSpec;
import dev.bigfleet.proxmox.spi.ManagedVm;
import dev.bigfleet.proxmox.spi.NodeStatus;
import dev.bigfleet.proxmox.spi.OperationContext;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.spi.ReadinessGate;
import dev.bigfleet.proxmox.spi.VmBinding;
import dev.bigfleet.proxmox.spi.VmTarget;
import java.net.URI;
import java.util.List;
import java.util.Optional;

/** A backend whose every call, capabilities included, runs with its plugin's class loader as context. */
final class ClassLoaderSafeBackend implements ProxmoxBackend {
    private final ProxmoxBackend delegate;
    private final ClassLoader loader;

    ClassLoaderSafeBackend(ProxmoxBackend delegate, ClassLoader loader) {
        this.delegate = delegate;
        this.loader = loader;
    }

    @Override
    public CreatedVm cloneAndStart(CloneSpec spec, OperationContext context) throws BackendException {
        return ThreadContextClassLoader.call(loader, () -> delegate.cloneAndStart(spec, context));
    }

    @Override
    public void ensureRunning(VmTarget target, OperationContext context) throws BackendException {
        ThreadContextClassLoader.run(loader, () -> delegate.ensureRunning(target, context));
    }

    @Override
    public void applyBootstrap(BootstrapSpec spec, OperationContext context) throws BackendException {
        ThreadContextClassLoader.run(loader, () -> delegate.applyBootstrap(spec, context));
    }

    @Override
    public void drain(DrainSpec spec, OperationContext context) throws BackendException {
        ThreadContextClassLoader.run(loader, () -> delegate.drain(spec, context));
    }

    @Override
    public void destroy(VmTarget target, OperationContext context) throws BackendException {
        ThreadContextClassLoader.run(loader, () -> delegate.destroy(target, context));
    }

    @Override
    public List<ManagedVm> describeManaged() throws BackendException {
        return ThreadContextClassLoader.call(loader, delegate::describeManaged);
    }

    @Override
    public List<NodeStatus> nodes() throws BackendException {
        return ThreadContextClassLoader.call(loader, delegate::nodes);
    }

    @Override
    public Optional<ReadinessGate> readiness() {
        Optional<ReadinessGate> gate =
                ThreadContextClassLoader.<Optional<ReadinessGate>, RuntimeException>call(loader, delegate::readiness);
        return gate.map(g -> (target, clusterId, context) ->
                ThreadContextClassLoader.run(loader, () -> g.awaitNodeReady(target, clusterId, context)));
    }

    @Override
    public Optional<BindingRecorder> bindings() {
        Optional<BindingRecorder> recorder =
                ThreadContextClassLoader.<Optional<BindingRecorder>, RuntimeException>call(loader, delegate::bindings);
        return recorder.map(r -> new BindingRecorder() {
            @Override
            public void recordBinding(VmTarget target, VmBinding binding, OperationContext context)
                    throws BackendException {
                ThreadContextClassLoader.run(loader, () -> r.recordBinding(target, binding, context));
            }

            @Override
            public void clearBinding(VmTarget target, OperationContext context) throws BackendException {
                ThreadContextClassLoader.run(loader, () -> r.clearBinding(target, context));
            }
        });
    }

    @Override
    public Optional<ApiStatus> apiStatus() {
        return ThreadContextClassLoader.<Optional<ApiStatus>, RuntimeException>call(loader, delegate::apiStatus);
    }

    @Override
    public Optional<URI> webUiLink(VmTarget vm) {
        return ThreadContextClassLoader.<Optional<URI>, RuntimeException>call(loader, () -> delegate.webUiLink(vm));
    }

    @Override
    public Optional<String> templateDrift(VmTarget vm) {
        return ThreadContextClassLoader.<Optional<String>, RuntimeException>call(
                loader, () -> delegate.templateDrift(vm));
    }

    @Override
    public long driftedVms() {
        return ThreadContextClassLoader.<Long, RuntimeException>call(loader, delegate::driftedVms);
    }

    @Override
    public java.util.List<String> vmAddresses(VmTarget vm) {
        return ThreadContextClassLoader.<java.util.List<String>, RuntimeException>call(
                loader, () -> delegate.vmAddresses(vm));
    }

    @Override
    public void close() {
        ThreadContextClassLoader.<RuntimeException>run(loader, delegate::close);
    }
}
