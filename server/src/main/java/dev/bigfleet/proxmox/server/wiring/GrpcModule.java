package dev.bigfleet.proxmox.server.wiring;

import com.google.inject.AbstractModule;
import com.google.inject.Provider;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import dev.bigfleet.proxmox.server.config.GrpcConfig;
import dev.bigfleet.proxmox.server.grpc.CapacityProviderService;
import dev.bigfleet.proxmox.server.grpc.GrpcServerFactory;
import dev.bigfleet.proxmox.server.grpc.LoggingInterceptor;
import dev.bigfleet.proxmox.server.grpc.RecoveryInterceptor;
import dev.bigfleet.proxmox.server.grpc.RpcMetricsInterceptor;
import dev.bigfleet.proxmox.server.grpc.ShardIdentityInterceptor;
import dev.bigfleet.proxmox.server.grpc.StandbyInterceptor;
import dev.bigfleet.proxmox.server.metrics.ProviderMetrics;
import dev.bigfleet.proxmox.server.startup.ConfigException;
import io.grpc.Server;
import io.grpc.protobuf.services.HealthStatusManager;
import java.util.Optional;

/** The gRPC server and what it serves. */
public final class GrpcModule extends AbstractModule {
    private final GrpcConfig config;

    public GrpcModule(GrpcConfig config) {
        this.config = config;
    }

    @Override
    protected void configure() {
        bind(GrpcConfig.class).toInstance(config);
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
    Server grpcServer(
            CapacityProviderService service,
            HealthStatusManager health,
            LoggingInterceptor logging,
            RecoveryInterceptor recovery,
            StandbyInterceptor standby,
            Provider<ShardIdentityInterceptor> identity,
            RpcMetricsInterceptor rpcMetrics,
            ProviderMetrics metrics)
            throws ConfigException {
        metrics.countPanics(recovery::recoveredCount);
        // only client certificates carry an identity: without them the check is not there at all
        return GrpcServerFactory.build(
                config,
                service,
                health,
                logging,
                recovery,
                standby,
                config.mutualTls() ? Optional.of(identity.get()) : Optional.empty(),
                rpcMetrics);
    }
}
