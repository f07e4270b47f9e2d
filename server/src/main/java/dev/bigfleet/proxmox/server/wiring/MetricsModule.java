package dev.bigfleet.proxmox.server.wiring;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import dev.bigfleet.proxmox.server.metrics.HealthMetrics;
import dev.bigfleet.proxmox.server.metrics.NodeMetrics;
import dev.bigfleet.proxmox.server.metrics.ProviderMetrics;
import dev.bigfleet.proxmox.server.metrics.ReconcileMetrics;
import dev.bigfleet.proxmox.server.metrics.ReplicaMetrics;
import dev.bigfleet.proxmox.server.metrics.SeriesRegistry;
import dev.bigfleet.proxmox.server.metrics.ServingMetrics;
import dev.bigfleet.proxmox.server.metrics.StateClock;

/** The process' metrics registry and the parts that feed it. */
public final class MetricsModule extends AbstractModule {
    @Override
    protected void configure() {
        // read on each scrape; created at startup so the series exist from the first one
        bind(HealthMetrics.class).asEagerSingleton();
        bind(NodeMetrics.class).asEagerSingleton();
        bind(ServingMetrics.class).asEagerSingleton();
        bind(ReplicaMetrics.class).asEagerSingleton();
    }

    @Provides
    @Singleton
    ProviderMetrics metrics() {
        return ProviderMetrics.create();
    }

    @Provides
    SeriesRegistry registry(ProviderMetrics metrics) {
        return metrics.registry();
    }

    @Provides
    StateClock stateClock(ProviderMetrics metrics) {
        return metrics.stateClock();
    }

    @Provides
    ReconcileMetrics reconciles(ProviderMetrics metrics) {
        return metrics.reconciles();
    }
}
