package dev.bigfleet.proxmox.server.metrics;

import dev.bigfleet.proxmox.engine.LifecycleEngine;
import dev.bigfleet.proxmox.spi.ApiStatus;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.Optional;

/**
 * The gauges read on each scrape from the engine and the backend: FAILED machines needing an
 * operator, VMs whose template changed since their clone, and, when the backend reports it, whether the Proxmox API answers and whether its
 * breaker is open. A backend without an API to report on exports neither API series.
 */
@Singleton
public final class HealthMetrics {
    @Inject
    public HealthMetrics(SeriesRegistry registry, LifecycleEngine engine, ProxmoxBackend backend) {
        registry.gauge(Families.FAILED_NEEDS_ATTENTION, engine::failedNeedingAttention);
        registry.gauge(
                Families.MACHINES_MOVED,
                () -> engine.snapshot().stream()
                        .filter(m -> !m.host().isEmpty() && !m.host().node().equals(m.zone()))
                        .count());
        registry.gauge(Families.TEMPLATE_DRIFT, backend::driftedVms);
        if (backend.apiStatus().isPresent()) {
            registry.gauge(Families.API_UP, () -> flag(backend.apiStatus().map(ApiStatus::reachable)));
            registry.gauge(
                    Families.API_BREAKER_OPEN, () -> flag(backend.apiStatus().map(ApiStatus::breakerOpen)));
        }
    }

    private static int flag(Optional<Boolean> value) {
        return value.orElse(false) ? 1 : 0;
    }
}
