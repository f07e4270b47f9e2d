package dev.bigfleet.proxmox.server.wiring;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import dev.bigfleet.proxmox.server.engine.EngineObserver;
import dev.bigfleet.proxmox.server.grpc.RecoveryInterceptor;
import dev.bigfleet.proxmox.server.metrics.ProviderMetrics;
import dev.bigfleet.proxmox.server.metrics.ReconcileMetrics;
import dev.bigfleet.proxmox.server.metrics.RpcMetricsInterceptor;
import dev.bigfleet.proxmox.server.metrics.StateClock;

/**
 * The process' metrics. The registry is built before the injector (the backend reports its API
 * calls into it and is built first); this module hands its parts to the engine, gRPC and HTTP.
 */
public final class MetricsModule extends AbstractModule {
    private final ProviderMetrics metrics;

    public MetricsModule(ProviderMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    protected void configure() {
        bind(ProviderMetrics.class).toInstance(metrics);
        bind(EngineObserver.class).toInstance(metrics.engine());
        bind(StateClock.class).toInstance(metrics.stateClock());
        bind(ReconcileMetrics.class).toInstance(metrics.reconciles());
    }

    @Provides
    @Singleton
    RpcMetricsInterceptor rpcMetrics(RecoveryInterceptor recovery) {
        metrics.countPanics(recovery::recoveredCount);
        return metrics.rpc();
    }
}
