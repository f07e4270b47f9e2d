package dev.bigfleet.proxmox.conformance.support;

import com.google.protobuf.ByteString;
import dev.bigfleet.proxmox.proto.v1alpha1.ConfigureRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.CreateRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.DeleteRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.DrainRequest;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** Builders for the four mutating requests with a token, so tests read as the behaviour text. */
public final class Requests {
    /** A small, obviously fake bootstrap credential; the provider must never echo it. */
    public static final ByteString BLOB = ByteString.copyFrom("conformance-bootstrap-secret", StandardCharsets.UTF_8);

    private Requests() {}

    public static CreateRequest create(String id, Token token) {
        return CreateRequest.newBuilder()
                .setMachineId(id)
                .setShardId(token.shardId())
                .setShardEpoch(token.epoch())
                .setSequenceNumber(token.sequence())
                .build();
    }

    public static CreateRequest create(String id) {
        return create(id, Token.NONE);
    }

    public static ConfigureRequest configure(String id, String cluster, Map<String, String> metadata, Token token) {
        return ConfigureRequest.newBuilder()
                .setMachineId(id)
                .setClusterId(cluster)
                .setBootstrapBlob(BLOB)
                .putAllShardMetadata(metadata)
                .setShardId(token.shardId())
                .setShardEpoch(token.epoch())
                .setSequenceNumber(token.sequence())
                .build();
    }

    public static ConfigureRequest configure(String id, String cluster, Map<String, String> metadata) {
        return configure(id, cluster, metadata, Token.NONE);
    }

    public static ConfigureRequest configure(String id, String cluster) {
        return configure(id, cluster, Map.of(), Token.NONE);
    }

    public static DrainRequest drain(String id, long graceSeconds, Token token) {
        return DrainRequest.newBuilder()
                .setMachineId(id)
                .setGracePeriodSeconds(graceSeconds)
                .setShardId(token.shardId())
                .setShardEpoch(token.epoch())
                .setSequenceNumber(token.sequence())
                .build();
    }

    public static DrainRequest drain(String id, Token token) {
        return drain(id, 0, token);
    }

    public static DrainRequest drain(String id) {
        return drain(id, 0, Token.NONE);
    }

    public static DeleteRequest delete(String id, Token token) {
        return DeleteRequest.newBuilder()
                .setMachineId(id)
                .setShardId(token.shardId())
                .setShardEpoch(token.epoch())
                .setSequenceNumber(token.sequence())
                .build();
    }

    public static DeleteRequest delete(String id) {
        return delete(id, Token.NONE);
    }
}
