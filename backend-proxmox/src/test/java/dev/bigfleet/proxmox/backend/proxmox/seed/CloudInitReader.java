package dev.bigfleet.proxmox.backend.proxmox.seed;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * Has Debian's cloud-init read a seed: the image extracted with xorriso into a NoCloud seed
 * directory, read there by cloud-init's own NoCloud datasource ({@code read-nocloud.py}), which
 * prints what it found as JSON.
 */
public final class CloudInitReader {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant T = Instant.parse("2025-01-02T03:04:05Z");

    private CloudInitReader() {}

    /** What cloud-init's NoCloud datasource read from the seed's files, working in {@code dir}. */
    public static JsonNode read(NoCloudSeed seed, Path dir) throws Exception {
        Path python = Tools.requireCloudInit();
        Path image = dir.resolve("seed.iso");
        Files.write(image, seed.image(T).toByteArray());
        Path cloud = dir.resolve("cloud");
        Path nocloud = cloud.resolve("seed/nocloud");
        Files.createDirectories(nocloud.getParent());
        Tools.run(List.of(
                        Tools.require("xorriso").toString(),
                        "-osirrox",
                        "on",
                        "-indev",
                        image.toString(),
                        "-extract",
                        "/",
                        nocloud.toString()))
                .ok();
        Tools.Result read = Tools.run(List.of(python.toString(), script("read-nocloud.py"), cloud.toString()))
                .ok();
        return JSON.readTree(read.text());
    }

    static String script(String name) throws Exception {
        return Path.of(CloudInitReader.class.getResource("/seed/" + name).toURI())
                .toString();
    }
}
