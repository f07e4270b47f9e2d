package dev.bigfleet.proxmox.engine;

import dev.bigfleet.proxmox.api.FenceToken;
import dev.bigfleet.proxmox.api.TransitionKind;
import java.util.Map;
import java.util.Objects;

/**
 * One lifecycle call as the engine sees it. {@code bootstrapBlob} is a credential: it is handed to
 * the backend and otherwise never logged, stored or shown.
 */
public final class MutationRequest {
    private final TransitionKind kind;
    private final String machineId;
    private final FenceToken token;
    private final String clusterId;
    private final byte[] bootstrapBlob;
    private final Map<String, String> shardMetadata;
    private final long gracePeriodSeconds;

    private MutationRequest(
            TransitionKind kind,
            String machineId,
            FenceToken token,
            String clusterId,
            byte[] bootstrapBlob,
            Map<String, String> shardMetadata,
            long gracePeriodSeconds) {
        this.kind = Objects.requireNonNull(kind, "kind");
        this.machineId = Objects.requireNonNull(machineId, "machineId");
        this.token = Objects.requireNonNull(token, "token");
        this.clusterId = Objects.requireNonNull(clusterId, "clusterId");
        this.bootstrapBlob = bootstrapBlob;
        // a copy, so a caller changing its map later cannot change what was stored
        this.shardMetadata = Map.copyOf(shardMetadata);
        this.gracePeriodSeconds = gracePeriodSeconds;
    }

    public static MutationRequest create(String machineId, FenceToken token) {
        return new MutationRequest(TransitionKind.CREATE, machineId, token, "", new byte[0], Map.of(), 0);
    }

    public static MutationRequest configure(
            String machineId,
            FenceToken token,
            String clusterId,
            byte[] bootstrapBlob,
            Map<String, String> shardMetadata) {
        return new MutationRequest(
                TransitionKind.CONFIGURE, machineId, token, clusterId, bootstrapBlob.clone(), shardMetadata, 0);
    }

    public static MutationRequest drain(String machineId, FenceToken token, long gracePeriodSeconds) {
        return new MutationRequest(
                TransitionKind.DRAIN, machineId, token, "", new byte[0], Map.of(), gracePeriodSeconds);
    }

    public static MutationRequest delete(String machineId, FenceToken token) {
        return new MutationRequest(TransitionKind.DELETE, machineId, token, "", new byte[0], Map.of(), 0);
    }

    public TransitionKind kind() {
        return kind;
    }

    public String machineId() {
        return machineId;
    }

    public FenceToken token() {
        return token;
    }

    public String clusterId() {
        return clusterId;
    }

    byte[] bootstrapBlob() {
        return bootstrapBlob;
    }

    public int bootstrapBlobSize() {
        return bootstrapBlob.length;
    }

    public Map<String, String> shardMetadata() {
        return shardMetadata;
    }

    public long gracePeriodSeconds() {
        return gracePeriodSeconds;
    }

    @Override
    public String toString() {
        return kind.label() + " " + machineId + " token=" + token;
    }
}
