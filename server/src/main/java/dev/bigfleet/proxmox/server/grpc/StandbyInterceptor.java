package dev.bigfleet.proxmox.server.grpc;

import dev.bigfleet.proxmox.server.serving.ServingState;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import jakarta.inject.Inject;

/**
 * Only the leader serves CapacityProvider: a standby answers every call UNAVAILABLE, naming the
 * leader when it knows it, so a caller retries there (or here, after a failover). Reads too: a
 * standby's view trails the leader's.
 */
public final class StandbyInterceptor implements ServerInterceptor {
    private final ServingState serving;

    @Inject
    public StandbyInterceptor(ServingState serving) {
        this.serving = serving;
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(
            ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        ServingState.Leadership now = serving.leadership();
        if (now.leads()) {
            return next.startCall(call, headers);
        }
        call.close(
                Status.UNAVAILABLE.withDescription("this replica is a standby; "
                        + now.leader()
                                .map(l -> "the leader is " + l + " (epoch " + now.epoch() + ")")
                                .orElse("no leader is known yet")),
                new Metadata());
        return new ServerCall.Listener<>() {};
    }
}
