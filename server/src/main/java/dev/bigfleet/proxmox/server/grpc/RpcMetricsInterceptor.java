package dev.bigfleet.proxmox.server.grpc;

import dev.bigfleet.proxmox.server.metrics.Families;
import dev.bigfleet.proxmox.server.metrics.SeriesRegistry;
import io.grpc.ForwardingServerCall.SimpleForwardingServerCall;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

/**
 * Counts and times every unary call by its short method name and status code. Installed on the
 * whole server, so the health Check is counted too, as in the reference; streaming calls
 * (reflection, health Watch) are not.
 */
@Singleton
public final class RpcMetricsInterceptor implements ServerInterceptor {
    private final SeriesRegistry registry;

    @Inject
    public RpcMetricsInterceptor(SeriesRegistry registry) {
        this.registry = registry;
        registry.declare(Families.GRPC_REQUESTS);
        registry.declare(Families.GRPC_DURATION);
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(
            ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        if (call.getMethodDescriptor().getType() != MethodDescriptor.MethodType.UNARY) {
            return next.startCall(call, headers);
        }
        long start = System.nanoTime();
        String method = call.getMethodDescriptor().getBareMethodName();
        return next.startCall(
                new SimpleForwardingServerCall<>(call) {
                    @Override
                    public void close(Status status, Metadata trailers) {
                        registry.counter(Families.GRPC_REQUESTS, method, CodeNames.of(status.getCode()))
                                .inc();
                        registry.histogram(Families.GRPC_DURATION, method).observe((System.nanoTime() - start) / 1e9);
                        super.close(status, trailers);
                    }
                },
                headers);
    }
}
