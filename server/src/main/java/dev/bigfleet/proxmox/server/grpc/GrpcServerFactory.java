package dev.bigfleet.proxmox.server.grpc;

import dev.bigfleet.proxmox.server.config.GrpcConfig;
import dev.bigfleet.proxmox.server.config.TlsFiles;
import dev.bigfleet.proxmox.server.startup.ConfigException;
import dev.bigfleet.proxmox.server.startup.ErrorMessages;
import dev.bigfleet.proxmox.server.tls.ServerTls;
import io.grpc.Server;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.ClientAuth;
import io.grpc.protobuf.services.HealthStatusManager;
import io.grpc.protobuf.services.ProtoReflectionService;
import io.grpc.protobuf.services.ProtoReflectionServiceV1;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;

/**
 * Builds the gRPC server: the provider service behind its interceptors, health, reflection and TLS;
 * under mTLS, the service's mutations also behind the check of the client certificate's shard.
 */
public final class GrpcServerFactory {
    private GrpcServerFactory() {}

    @SuppressWarnings("deprecation") // the v1alpha reflection service is kept for older grpcurl builds
    public static Server build(
            GrpcConfig config,
            CapacityProviderService service,
            HealthStatusManager health,
            LoggingInterceptor logging,
            RecoveryInterceptor recovery,
            StandbyInterceptor standby,
            Optional<ShardIdentityInterceptor> identity,
            ServerInterceptor metrics)
            throws ConfigException {
        // the last one runs first: logging outermost, so it also records the INTERNAL that recovery
        // produces, the UNAVAILABLE of a standby and the PERMISSION_DENIED of a certificate that may
        // not send a call's fence token; the identity check runs before the engine sees the call
        List<ServerInterceptor> interceptors = new ArrayList<>();
        interceptors.add(recovery);
        identity.ifPresent(interceptors::add);
        interceptors.add(standby);
        interceptors.add(logging);
        NettyServerBuilder builder = NettyServerBuilder.forAddress(
                        config.address().toSocketAddress())
                // no handler blocks (mutations complete asynchronously, Lists run on their own
                // threads), so calls skip the hop from the transport thread to an executor
                .directExecutor()
                .addService(ServerInterceptors.intercept(service, interceptors))
                .addService(health.getHealthService())
                // server-wide, so every unary call is counted, the health Check included
                .intercept(metrics)
                .keepAliveTime(2, TimeUnit.HOURS)
                .keepAliveTimeout(20, TimeUnit.SECONDS)
                .maxConnectionIdle(15, TimeUnit.MINUTES)
                .permitKeepAliveTime(30, TimeUnit.SECONDS)
                .permitKeepAliveWithoutCalls(true);
        if (config.reflection()) {
            builder.addService(ProtoReflectionServiceV1.newInstance());
            builder.addService(ProtoReflectionService.newInstance());
        }
        if (config.tls().isPresent()) {
            builder.sslContext(sslContext(config.tls().get()));
        }
        return builder.build();
    }

    private static io.grpc.netty.shaded.io.netty.handler.ssl.SslContext sslContext(TlsFiles tls)
            throws ConfigException {
        try {
            return GrpcSslContexts.configure(ServerTls.builder(tls))
                    .clientAuth(tls.clientCa().isPresent() ? ClientAuth.REQUIRE : ClientAuth.NONE)
                    .build();
        } catch (SSLException | IllegalArgumentException e) {
            throw new ConfigException(tls.flags().certificate() + "/"
                    + tls.flags().privateKey() + ": cannot use the TLS material: " + ErrorMessages.rootCause(e));
        }
    }
}
