package dev.bigfleet.proxmox.server.grpc;

import io.grpc.ForwardingServerCallListener.SimpleForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns an unexpected exception in a handler into INTERNAL "internal error" (details stay in the
 * log, not on the wire) so one bad request never takes the process down.
 */
public final class RecoveryInterceptor implements ServerInterceptor {
    private static final Logger log = LoggerFactory.getLogger(RecoveryInterceptor.class);
    private final AtomicLong recovered = new AtomicLong();

    public long recoveredCount() {
        return recovered.get();
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(
            ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        ServerCall.Listener<Q> delegate;
        try {
            delegate = next.startCall(call, headers);
        } catch (RuntimeException e) {
            fail(call, e);
            return new ServerCall.Listener<>() {};
        }
        return new SimpleForwardingServerCallListener<>(delegate) {
            @Override
            public void onMessage(Q message) {
                try {
                    super.onMessage(message);
                } catch (RuntimeException e) {
                    fail(call, e);
                }
            }

            @Override
            public void onHalfClose() {
                try {
                    super.onHalfClose();
                } catch (RuntimeException e) {
                    fail(call, e);
                }
            }
        };
    }

    private void fail(ServerCall<?, ?> call, RuntimeException e) {
        recovered.incrementAndGet();
        log.error(
                "recovered exception in gRPC handler: method={}",
                call.getMethodDescriptor().getFullMethodName(),
                e);
        try {
            call.close(Status.INTERNAL.withDescription("internal error"), new Metadata());
        } catch (IllegalStateException alreadyClosed) {
            // the handler had already answered; nothing left to tell the caller
        }
    }
}
