package dev.bigfleet.proxmox.server.metrics;

import dev.bigfleet.proxmox.engine.store.SharedStateStore;
import dev.bigfleet.proxmox.server.serving.ServingState;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.Optional;

/** Role, epoch and, on a standby, how far behind the leader it follows; read on each scrape. */
@Singleton
public final class ReplicaMetrics {
    @Inject
    public ReplicaMetrics(SeriesRegistry registry, ServingState serving, Optional<SharedStateStore> shared) {
        registry.gauge(Families.LEADER, () -> serving.leadership().leads() ? 1 : 0);
        registry.gauge(Families.LEADER_EPOCH, () -> serving.leadership().epoch());
        registry.gauge(
                Families.STANDBY_LAG,
                () -> shared.isPresent() && !serving.leadership().leads()
                        ? shared.get().followLagSeconds()
                        : 0.0);
    }
}
