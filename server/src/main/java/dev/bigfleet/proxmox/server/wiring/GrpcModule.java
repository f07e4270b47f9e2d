package dev.bigfleet.proxmox.server.wiring;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import dev.bigfleet.proxmox.server.config.ConfigException;
import dev.bigfleet.proxmox.server.config.ProviderConfig;
import dev.bigfleet.proxmox.server.grpc.CapacityProviderService;
import dev.bigfleet.proxmox.server.grpc.GrpcServerFactory;
import dev.bigfleet.proxmox.server.grpc.LoggingInterceptor;
import dev.bigfleet.proxmox.server.grpc.RecoveryInterceptor;
import dev.bigfleet.proxmox.server.metrics.RpcMetricsInterceptor;
import io.grpc.Server;
import io.grpc.protobuf.services.HealthStatusManager;

/** The gRPC server and what it serves. */
public final class GrpcModule extends AbstractModule {
    @Override
    protected void configure() {
        bind(LoggingInterceptor.class).in(Singleton.class);
        bind(RecoveryInterceptor.class).in(Singleton.class);
        bind(CapacityProviderService.class).in(Singleton.class);
    }

    @Provides
    @Singleton
    HealthStatusManager health() {
        return new HealthStatusManager();
    }

    @Provides
    @Singleton
    Server grpcServer(ProviderConfig config, CapacityProviderService service, HealthStatusManager health,
            LoggingInterceptor logging, RecoveryInterceptor recovery, RpcMetricsInterceptor metrics)
            throws ConfigException {
        return GrpcServerFactory.build(config, service, health, logging, recovery, metrics);
    }
}
