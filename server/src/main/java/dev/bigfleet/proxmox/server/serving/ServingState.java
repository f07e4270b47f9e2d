package dev.bigfleet.proxmox.server.serving;

import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.protobuf.services.HealthStatusManager;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

/**
 * Whether the provider takes traffic. {@code /readyz} and gRPC health read the same flag, so they
 * flip at the same moments: ready once everything is wired and serving, not ready from the start
 * of a graceful shutdown.
 */
@Singleton
public final class ServingState {
    private final HealthStatusManager health;
    private volatile boolean ready;

    @Inject
    public ServingState(HealthStatusManager health) {
        this.health = health;
        health.setStatus(HealthStatusManager.SERVICE_NAME_ALL_SERVICES, ServingStatus.NOT_SERVING);
    }

    public boolean isReady() {
        return ready;
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
