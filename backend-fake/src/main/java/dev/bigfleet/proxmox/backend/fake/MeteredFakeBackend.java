package dev.bigfleet.proxmox.backend.fake;

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
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The fake backend as the server runs it: every simulated call is reported to the server's
 * {@link ApiCallRecorder} under the reference provider's operation names ({@code CloneVM},
 * {@code Configure}, ...), so metrics and dashboards can be tried without a cluster.
 */
public final class MeteredFakeBackend implements ProxmoxBackend {
    /** The reference provider's operations, announced so they are exported at zero from the start. */
    static final List<String> OPERATIONS =
            List.of("CloneVM", "DeleteVM", "DescribeManaged", "EnsureRunning", "Configure", "Drain");

    private final FakeProxmoxBackend fake;
    private final ApiCallRecorder calls;

    public MeteredFakeBackend(FakeProxmoxBackend fake, ApiCallRecorder calls) {
        this.fake = fake;
        this.calls = calls;
        OPERATIONS.forEach(calls::declare);
    }

    /** The simulator behind it, for tests. */
    public FakeProxmoxBackend fake() {
        return fake;
    }

    /** One simulated call. */
    @FunctionalInterface
    private interface Call<T> {
        T run() throws BackendException;
    }

    private <T> T timed(String op, Call<T> call) throws BackendException {
        long start = System.nanoTime();
        boolean ok = false;
        try {
            T result = call.run();
            ok = true;
            return result;
        } finally {
            calls.record(op, ok, Duration.ofNanos(System.nanoTime() - start));
        }
    }

    @Override
    public CreatedVm cloneAndStart(CloneSpec spec, OperationContext context) throws BackendException {
        return timed("CloneVM", () -> fake.cloneAndStart(spec, context));
    }

    @Override
    public void ensureRunning(VmTarget target, OperationContext context) throws BackendException {
        timed("EnsureRunning", () -> {
            fake.ensureRunning(target, context);
            return null;
        });
    }

    @Override
    public void applyBootstrap(BootstrapSpec spec, OperationContext context) throws BackendException {
        timed("Configure", () -> {
            fake.applyBootstrap(spec, context);
            return null;
        });
    }

    @Override
    public Optional<ReadinessGate> readiness() {
        return fake.readiness()
                .map(gate -> (target, clusterId, context) -> timed("AwaitNodeReady", () -> {
                    gate.awaitNodeReady(target, clusterId, context);
                    return null;
                }));
    }

    @Override
    public void drain(DrainSpec spec, OperationContext context) throws BackendException {
        timed("Drain", () -> {
            fake.drain(spec, context);
            return null;
        });
    }

    @Override
    public void destroy(VmTarget target, OperationContext context) throws BackendException {
        timed("DeleteVM", () -> {
            fake.destroy(target, context);
            return null;
        });
    }

    @Override
    public List<ManagedVm> describeManaged() throws BackendException {
        return timed("DescribeManaged", fake::describeManaged);
    }

    @Override
    public List<NodeStatus> nodes() throws BackendException {
        return timed("NodeStatus", fake::nodes);
    }

    @Override
    public void close() {
        fake.close();
    }
}
