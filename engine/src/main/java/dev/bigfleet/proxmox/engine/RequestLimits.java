package dev.bigfleet.proxmox.engine;

import dev.bigfleet.proxmox.api.TransitionKind;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Rule 1 of the contract: the shape checks every mutation passes before anything else happens.
 * Oversized input is refused whole, never truncated. Fence tokens are not checked here: an epoch or
 * sequence is a signed number, negatives included, and only the fence compares them.
 */
public final class RequestLimits {
    public static final int MAX_ID_BYTES = 512;
    public static final int MAX_METADATA_ENTRIES = 256;
    public static final int MAX_METADATA_BYTES = 64 * 1024;
    public static final int MAX_BOOTSTRAP_BLOB_BYTES = 1024 * 1024;

    private RequestLimits() {}

    static void check(MutationRequest request) throws RejectedException {
        if (request.machineId().isEmpty()) {
            throw invalid("machine_id required");
        }
        if (utf8Length(request.machineId()) > MAX_ID_BYTES) {
            throw invalid("machine_id is longer than " + MAX_ID_BYTES + " bytes");
        }
        if (request.kind() == TransitionKind.DRAIN && request.gracePeriodSeconds() < 0) {
            throw invalid("grace_period_seconds must be >= 0");
        }
        if (request.kind() == TransitionKind.CONFIGURE) {
            if (request.clusterId().isEmpty()) {
                throw invalid("cluster_id required");
            }
            if (utf8Length(request.clusterId()) > MAX_ID_BYTES) {
                throw invalid("cluster_id is longer than " + MAX_ID_BYTES + " bytes");
            }
            if (request.bootstrapBlobSize() > MAX_BOOTSTRAP_BLOB_BYTES) {
                throw invalid("bootstrap_blob is larger than " + MAX_BOOTSTRAP_BLOB_BYTES + " bytes");
            }
            checkMetadata(request.shardMetadata());
        }
    }

    private static void checkMetadata(Map<String, String> metadata) throws RejectedException {
        if (metadata.size() > MAX_METADATA_ENTRIES) {
            throw invalid("shard_metadata has " + metadata.size() + " entries; at most " + MAX_METADATA_ENTRIES
                    + " are accepted");
        }
        long bytes = 0;
        for (Map.Entry<String, String> e : metadata.entrySet()) {
            bytes += utf8Length(e.getKey()) + utf8Length(e.getValue());
        }
        if (bytes > MAX_METADATA_BYTES) {
            throw invalid("shard_metadata holds " + bytes + " bytes of keys and values; at most " + MAX_METADATA_BYTES
                    + " are accepted");
        }
    }

    private static int utf8Length(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }

    private static RejectedException invalid(String message) {
        return new RejectedException(RejectionReason.INVALID_ARGUMENT, message);
    }
}
