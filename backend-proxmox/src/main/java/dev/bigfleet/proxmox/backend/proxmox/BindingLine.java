package dev.bigfleet.proxmox.backend.proxmox;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.bigfleet.proxmox.spi.VmBinding;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A {@link VmBinding} as one line of a VM's description: {@code bigfleet-binding=} and a JSON object
 * with {@code cluster}, {@code bound_at} (ISO 8601) and either {@code shard_metadata} (the map) or
 * {@code shard_metadata_sha256} (the SHA-256 of the map's canonical JSON, keys sorted) when the whole
 * map would not fit the description. JSON keeps any character of a cluster id or of metadata on one
 * line.
 */
final class BindingLine {
    static final String PREFIX = "bigfleet-binding=";
    private static final ObjectMapper JSON = new ObjectMapper();

    private BindingLine() {}

    static String render(VmBinding binding) {
        ObjectNode node = JSON.createObjectNode();
        node.put("cluster", binding.clusterId());
        node.put("bound_at", binding.boundAt().toString());
        if (binding.metadataDigest().isPresent()) {
            node.put("shard_metadata_sha256", binding.metadataDigest().get());
        } else {
            ObjectNode metadata = node.putObject("shard_metadata");
            new TreeMap<>(binding.shardMetadata()).forEach(metadata::put);
        }
        return PREFIX + node;
    }

    /** The same binding keeping only the digest of its metadata. */
    static VmBinding elided(VmBinding binding) {
        return new VmBinding(
                binding.clusterId(), binding.boundAt(), Map.of(), Optional.of(digest(binding.shardMetadata())));
    }

    /** The SHA-256 (hex) of the metadata's canonical JSON: an object with its keys sorted. */
    static String digest(Map<String, String> metadata) {
        ObjectNode node = JSON.createObjectNode();
        new TreeMap<>(metadata).forEach(node::put);
        try {
            byte[] canonical = JSON.writeValueAsBytes(node);
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(canonical));
        } catch (JsonProcessingException | NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The cluster a binding line that cannot be read is taken to name: such a line is still evidence
     * that the VM was bound, and a VM that may serve is never reported free.
     */
    static final String UNREADABLE_CLUSTER = "unknown";

    /** The binding of a line written by {@link #render}; a damaged line binds to {@link #UNREADABLE_CLUSTER}. */
    static VmBinding parse(String line) {
        return read(line)
                .orElseGet(() -> new VmBinding(UNREADABLE_CLUSTER, Instant.EPOCH, Map.of(), Optional.of("unreadable")));
    }

    private static Optional<VmBinding> read(String line) {
        try {
            JsonNode node = JSON.readTree(line.substring(PREFIX.length()));
            String cluster = node.path("cluster").asText("");
            Instant boundAt = Instant.parse(node.path("bound_at").asText(""));
            if (cluster.isEmpty()) {
                return Optional.empty();
            }
            if (node.hasNonNull("shard_metadata_sha256")) {
                return Optional.of(new VmBinding(
                        cluster,
                        boundAt,
                        Map.of(),
                        Optional.of(node.get("shard_metadata_sha256").asText())));
            }
            Map<String, String> metadata = new LinkedHashMap<>();
            node.path("shard_metadata")
                    .properties()
                    .forEach(e -> metadata.put(e.getKey(), e.getValue().asText()));
            return Optional.of(VmBinding.of(cluster, boundAt, metadata));
        } catch (JsonProcessingException | DateTimeParseException e) {
            return Optional.empty();
        }
    }

    static int utf8Length(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }
}
