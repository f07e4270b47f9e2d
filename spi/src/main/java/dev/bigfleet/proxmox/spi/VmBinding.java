package dev.bigfleet.proxmox.spi;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a configured machine's VM is doing, kept on the VM itself so that a provider that lost its
 * state can tell a serving node from free capacity: the cluster it was bound to, when, and the shard
 * metadata of that Configure. Never the bootstrap blob.
 *
 * <p>When the metadata was too large to keep beside the VM, {@code shardMetadata} is empty and
 * {@code metadataDigest} holds the SHA-256 (hex) of its canonical form, so a rebuild knows metadata
 * existed without being able to restore it.
 *
 * @param clusterId the cluster of the Configure; never empty
 * @param boundAt when the Configure that bound it was accepted
 * @param shardMetadata the Configure's shard metadata, when it was kept whole
 * @param metadataDigest the digest of the metadata, when only that was kept
 */
public record VmBinding(
        String clusterId, Instant boundAt, Map<String, String> shardMetadata, Optional<String> metadataDigest) {
    public VmBinding {
        Objects.requireNonNull(clusterId, "clusterId");
        Objects.requireNonNull(boundAt, "boundAt");
        if (clusterId.isEmpty()) {
            throw new IllegalArgumentException("a binding names its cluster");
        }
        shardMetadata = Map.copyOf(shardMetadata);
        Objects.requireNonNull(metadataDigest, "metadataDigest");
        if (metadataDigest.isPresent() && !shardMetadata.isEmpty()) {
            throw new IllegalArgumentException("a binding keeps its metadata or a digest of it, not both");
        }
    }

    /** A binding that keeps its metadata whole. */
    public static VmBinding of(String clusterId, Instant boundAt, Map<String, String> shardMetadata) {
        return new VmBinding(clusterId, boundAt, shardMetadata, Optional.empty());
    }

    /** Whether the metadata is only known by its digest. */
    public boolean metadataElided() {
        return metadataDigest.isPresent();
    }
}
