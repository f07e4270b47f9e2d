package dev.bigfleet.proxmox.server.grpc;

import dev.bigfleet.proxmox.api.FenceToken;
import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.api.MachineState;
import dev.bigfleet.proxmox.proto.v1alpha1.CapacityProviderGrpc;
import dev.bigfleet.proxmox.proto.v1alpha1.ConfigureRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.CreateRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.DeleteRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.DrainRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.ListFilter;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineList;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineRef;
import dev.bigfleet.proxmox.proto.v1alpha1.TransitionAck;
import dev.bigfleet.proxmox.server.engine.Accepted;
import dev.bigfleet.proxmox.server.engine.LifecycleEngine;
import dev.bigfleet.proxmox.server.engine.ListQuery;
import dev.bigfleet.proxmox.server.engine.ListResult;
import dev.bigfleet.proxmox.server.engine.MutationRequest;
import dev.bigfleet.proxmox.server.engine.RejectedException;
import com.google.protobuf.ByteString;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import jakarta.inject.Inject;
import java.util.Set;

/** The gRPC face of the engine: wire messages in, engine calls, wire messages or status codes out. */
public final class CapacityProviderService extends CapacityProviderGrpc.CapacityProviderImplBase {
    private final LifecycleEngine engine;

    @Inject
    public CapacityProviderService(LifecycleEngine engine) {
        this.engine = engine;
    }

    @Override
    public void create(CreateRequest r, StreamObserver<TransitionAck> out) {
        mutate(MutationRequest.create(r.getMachineId(), token(r.getShardId(), r.getShardEpoch(), r.getSequenceNumber())), out);
    }

    @Override
    public void configure(ConfigureRequest r, StreamObserver<TransitionAck> out) {
        mutate(MutationRequest.configure(r.getMachineId(),
                token(r.getShardId(), r.getShardEpoch(), r.getSequenceNumber()),
                r.getClusterId(), r.getBootstrapBlob().toByteArray(), r.getShardMetadataMap()), out);
    }

    @Override
    public void drain(DrainRequest r, StreamObserver<TransitionAck> out) {
        mutate(MutationRequest.drain(r.getMachineId(), token(r.getShardId(), r.getShardEpoch(), r.getSequenceNumber()),
                r.getGracePeriodSeconds()), out);
    }

    @Override
    public void delete(DeleteRequest r, StreamObserver<TransitionAck> out) {
        mutate(MutationRequest.delete(r.getMachineId(), token(r.getShardId(), r.getShardEpoch(), r.getSequenceNumber())), out);
    }

    @Override
    public void get(MachineRef ref, StreamObserver<dev.bigfleet.proxmox.proto.v1alpha1.Machine> out) {
        if (ref.getId().isEmpty()) {
            out.onError(Status.INVALID_ARGUMENT.withDescription("id required").asRuntimeException());
            return;
        }
        Machine m = engine.get(ref.getId()).orElse(null);
        if (m == null) {
            out.onError(Status.NOT_FOUND.withDescription("machine \"" + ref.getId() + "\" not found").asRuntimeException());
            return;
        }
        out.onNext(ProtoMapper.toProto(m));
        out.onCompleted();
    }

    @Override
    public void list(ListFilter filter, StreamObserver<MachineList> out) {
        Set<MachineState> states = ProtoMapper.states(filter.getStatesList());
        if (filter.getStatesCount() > 0 && states.isEmpty()) {
            // only UNSPECIFIED or unknown states were asked for: nothing matches, but keep the cursor current
            out.onNext(MachineList.newBuilder().setRevision(ByteString.copyFrom(engine.currentCursor())).build());
            out.onCompleted();
            return;
        }
        byte[] since = filter.getSinceRevision().isEmpty() ? null : filter.getSinceRevision().toByteArray();
        ListResult result = engine.list(new ListQuery(states, filter.getMaxResults(), since));
        MachineList.Builder b = MachineList.newBuilder().setRevision(ByteString.copyFrom(result.revision()));
        for (Machine m : result.machines()) {
            b.addMachines(ProtoMapper.toProto(m));
        }
        out.onNext(b.build());
        out.onCompleted();
    }

    private void mutate(MutationRequest request, StreamObserver<TransitionAck> out) {
        try {
            Accepted accepted = engine.mutate(request);
            out.onNext(TransitionAck.newBuilder()
                    .setOperationId(accepted.operationId())
                    .setMachine(ProtoMapper.toProto(accepted.machine()))
                    .build());
            out.onCompleted();
        } catch (RejectedException e) {
            out.onError(GrpcStatuses.of(e).asRuntimeException());
        }
    }

    private static FenceToken token(String shardId, long epoch, long sequence) {
        return new FenceToken(shardId, epoch, sequence);
    }
}
