package dev.bigfleet.proxmox.server.grpc;

import com.google.protobuf.ByteString;
import dev.bigfleet.proxmox.api.FenceToken;
import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.api.MachineState;
import dev.bigfleet.proxmox.engine.Failures;
import dev.bigfleet.proxmox.engine.LifecycleEngine;
import dev.bigfleet.proxmox.engine.ListQuery;
import dev.bigfleet.proxmox.engine.ListResult;
import dev.bigfleet.proxmox.engine.MutationRequest;
import dev.bigfleet.proxmox.engine.RejectedException;
import dev.bigfleet.proxmox.proto.v1alpha1.CapacityProviderGrpc;
import dev.bigfleet.proxmox.proto.v1alpha1.ConfigureRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.CreateRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.DeleteRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.DrainRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.ListFilter;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineList;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineRef;
import dev.bigfleet.proxmox.proto.v1alpha1.TransitionAck;
import io.grpc.Context;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import jakarta.inject.Inject;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gRPC face of the engine: wire messages in, engine calls, wire messages or status codes out.
 * Every handler returns at once, so the server runs them on its transport threads: mutations
 * answer when the engine completes them, Lists run on their own threads.
 */
public final class CapacityProviderService extends CapacityProviderGrpc.CapacityProviderImplBase {
    private static final Logger log = LoggerFactory.getLogger(CapacityProviderService.class);
    private final LifecycleEngine engine;
    /** Lists, as many at once as there are cores; idle threads go away, so nothing needs stopping. */
    private final ThreadPoolExecutor lists;

    @Inject
    public CapacityProviderService(LifecycleEngine engine) {
        this.engine = engine;
        int threads = Math.max(2, Runtime.getRuntime().availableProcessors());
        AtomicInteger n = new AtomicInteger();
        this.lists = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, "grpc-list-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        this.lists.allowCoreThreadTimeOut(true);
    }

    @Override
    public void create(CreateRequest r, StreamObserver<TransitionAck> out) {
        mutate(
                MutationRequest.create(
                        r.getMachineId(), token(r.getShardId(), r.getShardEpoch(), r.getSequenceNumber())),
                out);
    }

    @Override
    public void configure(ConfigureRequest r, StreamObserver<TransitionAck> out) {
        mutate(
                MutationRequest.configure(
                        r.getMachineId(),
                        token(r.getShardId(), r.getShardEpoch(), r.getSequenceNumber()),
                        r.getClusterId(),
                        r.getBootstrapBlob().toByteArray(),
                        r.getShardMetadataMap()),
                out);
    }

    @Override
    public void drain(DrainRequest r, StreamObserver<TransitionAck> out) {
        mutate(
                MutationRequest.drain(
                        r.getMachineId(),
                        token(r.getShardId(), r.getShardEpoch(), r.getSequenceNumber()),
                        r.getGracePeriodSeconds()),
                out);
    }

    @Override
    public void delete(DeleteRequest r, StreamObserver<TransitionAck> out) {
        mutate(
                MutationRequest.delete(
                        r.getMachineId(), token(r.getShardId(), r.getShardEpoch(), r.getSequenceNumber())),
                out);
    }

    @Override
    public void get(MachineRef ref, StreamObserver<dev.bigfleet.proxmox.proto.v1alpha1.Machine> out) {
        if (ref.getId().isEmpty()) {
            out.onError(Status.INVALID_ARGUMENT.withDescription("id required").asRuntimeException());
            return;
        }
        Machine m = engine.get(ref.getId()).orElse(null);
        if (m == null) {
            out.onError(Status.NOT_FOUND
                    .withDescription("machine \"" + ref.getId() + "\" not found")
                    .asRuntimeException());
            return;
        }
        out.onNext(ProtoMapper.toProto(m));
        out.onCompleted();
    }

    @Override
    public void list(ListFilter filter, StreamObserver<MachineList> out) {
        // handlers run on the transport's threads: a full List can take a second to build and send
        lists.execute(Context.current().wrap(() -> {
            try {
                answerList(filter, out);
            } catch (StatusRuntimeException cancelled) {
                // the caller went away
            } catch (RuntimeException e) {
                log.error("List failed", e);
                out.onError(Status.INTERNAL.withDescription("internal error").asRuntimeException());
            }
        }));
    }

    private void answerList(ListFilter filter, StreamObserver<MachineList> out) {
        Set<MachineState> states = ProtoMapper.states(filter.getStatesList());
        if (filter.getStatesCount() > 0 && states.isEmpty()) {
            // only UNSPECIFIED or unknown states were asked for: nothing matches, but keep the cursor current
            out.onNext(MachineList.newBuilder()
                    .setRevision(ByteString.copyFrom(engine.currentCursor()))
                    .build());
            out.onCompleted();
            return;
        }
        byte[] since = filter.getSinceRevision().isEmpty()
                ? null
                : filter.getSinceRevision().toByteArray();
        ListResult result = engine.list(new ListQuery(states, filter.getMaxResults(), since));
        MachineList.Builder b = MachineList.newBuilder().setRevision(ByteString.copyFrom(result.revision()));
        for (Machine m : result.machines()) {
            b.addMachines(ProtoMapper.toProto(m));
        }
        out.onNext(b.build());
        out.onCompleted();
    }

    /** Answers when the engine has: no thread waits while the change becomes durable. */
    @SuppressWarnings("FutureReturnValueIgnored") // the callback answers the call, whatever the outcome
    private void mutate(MutationRequest request, StreamObserver<TransitionAck> out) {
        engine.mutateAsync(request).whenComplete((accepted, error) -> {
            try {
                if (error == null) {
                    out.onNext(TransitionAck.newBuilder()
                            .setOperationId(accepted.operationId())
                            .setMachine(ProtoMapper.toProto(accepted.machine()))
                            .build());
                    out.onCompleted();
                } else {
                    Optional<RejectedException> rejected = Failures.rejection(error);
                    if (rejected.isEmpty()) {
                        log.error("{} of machine {} failed", request.kind().label(), request.machineId(), error);
                    }
                    out.onError(rejected.map(GrpcStatuses::of)
                            .orElse(Status.INTERNAL.withDescription("internal error"))
                            .asRuntimeException());
                }
            } catch (StatusRuntimeException cancelled) {
                // the caller went away; the change stands, and a retry gets the same answer
            }
        });
    }

    private static FenceToken token(String shardId, long epoch, long sequence) {
        return new FenceToken(shardId, epoch, sequence);
    }
}
