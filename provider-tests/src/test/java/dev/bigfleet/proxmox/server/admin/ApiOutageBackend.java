package dev.bigfleet.proxmox.server.admin;

import dev.bigfleet.proxmox.spi.ApiStatus;
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
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A backend whose API status the test sets, for the admin page's outage view: it reports what {@link
 * #report} holds through the SPI's {@code apiStatus()} capability, as a real backend does, and lists
 * two online nodes (its last good answer). It runs no lifecycle work. Selected with {@code
 * --proxmox-backend api-outage} ({@link ApiOutageBackendFactory}).
 */
public final class ApiOutageBackend implements ProxmoxBackend {
    /** What the backend reports; the test changes it. */
    static volatile ApiStatus report = new ApiStatus(true, Instant.EPOCH, Optional.empty(), false);

    @Override
    public Optional<ApiStatus> apiStatus() {
        return Optional.of(report);
    }

    @Override
    public List<NodeStatus> nodes() {
        return List.of(
                new NodeStatus("pve-a", true, 64L << 30, 8L << 30, 32),
                new NodeStatus("pve-b", true, 64L << 30, 4L << 30, 32));
    }

    @Override
    public List<ManagedVm> describeManaged() {
        return List.of();
    }

    private static BackendException unreachable() {
        return BackendException.transientFailure(
                report.lastError().orElse("the test double runs no lifecycle work"), null);
    }

    @Override
    public CreatedVm cloneAndStart(CloneSpec spec, OperationContext context) throws BackendException {
        throw unreachable();
    }

    @Override
    public void ensureRunning(VmTarget target, OperationContext context) throws BackendException {
        throw unreachable();
    }

    @Override
    public void applyBootstrap(BootstrapSpec spec, OperationContext context) throws BackendException {
        throw unreachable();
    }

    @Override
    public void drain(DrainSpec spec, OperationContext context) throws BackendException {
        throw unreachable();
    }

    @Override
    public void destroy(VmTarget target, OperationContext context) throws BackendException {
        throw unreachable();
    }
}
