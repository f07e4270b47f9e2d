package dev.bigfleet.proxmox.server.serving;

import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.protobuf.services.HealthStatusManager;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.Optional;

/**
 * Whether the provider takes traffic, and which replica leads. {@code /readyz} and gRPC health read
 * the same flag, so they flip at the same moments: ready once everything is wired and serving,
 * not ready from the start of a graceful shutdown, and never on a standby. A provider without
 * replicas leads from the start; a replica starts as a standby and leads once it took over.
 */
@Singleton
public final class ServingState {
    private final HealthStatusManager health;
    private volatile boolean ready;
    private volatile Leadership leadership = Leadership.SOLE;

    /**
     * Who leads, as this replica knows it.
     *
     * @param leads whether this replica leads
     * @param epoch the lease epoch of the leader (0 without replicas)
     * @param leader the leader's name, when known
     */
    public record Leadership(boolean leads, long epoch, Optional<String> leader) {
        static final Leadership SOLE = new Leadership(true, 0, Optional.empty());
    }

    @Inject
    public ServingState(HealthStatusManager health) {
        this.health = health;
        health.setStatus(HealthStatusManager.SERVICE_NAME_ALL_SERVICES, ServingStatus.NOT_SERVING);
    }

    public boolean isReady() {
        return ready;
    }

    public Leadership leadership() {
        return leadership;
    }

    /** Why {@code /readyz} answers 503: {@code standby} on a replica that does not lead. */
    public String notReadyReason() {
        Leadership now = leadership;
        if (!now.leads()) {
            return "standby"
                    + now.leader().map(l -> " (the leader is " + l + ")").orElse(" (no leader yet)");
        }
        return "starting or stopping";
    }

    /** This replica leads under {@code epoch}; readiness follows with {@link #markReady}. */
    public void leading(long epoch, String name) {
        leadership = new Leadership(true, epoch, Optional.of(name));
    }

    /** This replica is a standby: not ready, and the leader is {@code leader} when known. */
    public void standingBy(long epoch, Optional<String> leader) {
        leadership = new Leadership(false, epoch, leader);
        markNotReady();
    }

    public void markReady() {
        ready = true;
        health.setStatus(HealthStatusManager.SERVICE_NAME_ALL_SERVICES, ServingStatus.SERVING);
        health.setStatus("bigfleet.v1alpha1.CapacityProvider", ServingStatus.SERVING);
    }

    public void markNotReady() {
        ready = false;
        health.setStatus(HealthStatusManager.SERVICE_NAME_ALL_SERVICES, ServingStatus.NOT_SERVING);
        health.setStatus("bigfleet.v1alpha1.CapacityProvider", ServingStatus.NOT_SERVING);
    }
}
