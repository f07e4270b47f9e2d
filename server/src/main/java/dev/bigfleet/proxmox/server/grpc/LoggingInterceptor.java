package dev.bigfleet.proxmox.server.grpc;

import io.grpc.ForwardingServerCall.SimpleForwardingServerCall;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs every unary call with its method, code and duration: mutations at INFO, reads at DEBUG,
 * anything that failed at WARN. Request bodies are never logged (they may carry the bootstrap blob).
 */
public final class LoggingInterceptor implements ServerInterceptor {
    private static final Logger log = LoggerFactory.getLogger("rpc");

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
            ServerCallHandler<Q, R> next) {
        long start = System.nanoTime();
        String method = call.getMethodDescriptor().getBareMethodName();
        ServerCall<Q, R> logged = new SimpleForwardingServerCall<>(call) {
            @Override
            public void close(Status status, Metadata trailers) {
                long ms = (System.nanoTime() - start) / 1_000_000;
                if (!status.isOk() && status.getCode() != Status.Code.NOT_FOUND
                        && status.getCode() != Status.Code.FAILED_PRECONDITION
                        && status.getCode() != Status.Code.INVALID_ARGUMENT
                        && status.getCode() != Status.Code.ABORTED) {
                    log.warn("rpc method={} code={} dur_ms={} desc={}", method, status.getCode(), ms, status.getDescription());
                } else if (!status.isOk()) {
                    log.info("rpc method={} code={} dur_ms={} desc={}", method, status.getCode(), ms, status.getDescription());
                } else if (isMutation(method)) {
                    log.info("rpc method={} code={} dur_ms={}", method, status.getCode(), ms);
                } else {
                    log.debug("rpc method={} code={} dur_ms={}", method, status.getCode(), ms);
                }
                super.close(status, trailers);
            }
        };
        return next.startCall(logged, headers);
    }

    private static boolean isMutation(String method) {
        return "Create".equals(method) || "Configure".equals(method) || "Drain".equals(method) || "Delete".equals(method);
    }
}
