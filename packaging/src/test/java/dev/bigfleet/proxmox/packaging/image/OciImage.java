package dev.bigfleet.proxmox.packaging.image;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bigfleet.proxmox.packaging.Commands;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * The OCI image archive the build writes (an OCI image layout in a tar), opened: its manifest,
 * the container configuration in it, and its layers.
 */
final class OciImage {
    private static final ObjectMapper JSON = new ObjectMapper();

    final Path layout;
    final String reference;
    final JsonNode manifest;
    final JsonNode config;

    private OciImage(Path layout, String reference, JsonNode manifest, JsonNode config) {
        this.layout = layout;
        this.reference = reference;
        this.manifest = manifest;
        this.config = config;
    }

    static OciImage open(Path archive, Path into) throws IOException {
        Files.createDirectories(into);
        Commands.run(List.of("tar", "-xf", archive.toString(), "-C", into.toString()))
                .ok();
        JsonNode entry = JSON.readTree(into.resolve("index.json").toFile())
                .get("manifests")
                .get(0);
        JsonNode manifest =
                JSON.readTree(blob(into, entry.get("digest").asText()).toFile());
        JsonNode config = JSON.readTree(
                blob(into, manifest.get("config").get("digest").asText()).toFile());
        String reference = entry.get("annotations")
                .get("org.opencontainers.image.ref.name")
                .asText();
        return new OciImage(into, reference, manifest, config);
    }

    private static Path blob(Path layout, String digest) {
        return layout.resolve("blobs").resolve(digest.replace(':', '/'));
    }

    /** The container settings: Entrypoint, User, Env, WorkingDir. */
    JsonNode container() {
        return config.get("config");
    }

    List<String> entrypoint() {
        List<String> args = new ArrayList<>();
        container().get("Entrypoint").forEach(a -> args.add(a.asText()));
        return args;
    }

    List<String> layerDigests() {
        List<String> digests = new ArrayList<>();
        manifest.get("layers").forEach(l -> digests.add(l.get("digest").asText()));
        return digests;
    }

    /** The bytes of every layer once uncompressed: what the image takes on a node's disk. */
    long uncompressedSize() throws IOException {
        long total = 0;
        for (String digest : layerDigests()) {
            try (InputStream in = new GZIPInputStream(Files.newInputStream(blob(layout, digest)))) {
                total += in.transferTo(OutputStream.nullOutputStream());
            }
        }
        return total;
    }

    /** Unpacks the image into a runtime bundle (rootfs and config.json) with umoci. */
    Path unpack(Path umoci, Path bundle) {
        Commands.run(List.of(umoci.toString(), "unpack", "--image", layout + ":" + reference, bundle.toString()))
                .ok();
        return bundle.resolve("rootfs");
    }
}
