package dev.bigfleet.proxmox.pvesim;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** ISO images made by Debian's genisoimage, as cloud-init's documentation makes a NoCloud seed. */
final class SeedIso {
    private SeedIso() {}

    /** A {@code cidata} seed: {@code meta-data} with the instance id, {@code user-data}, {@code network-config}. */
    static byte[] cidata(String instanceId, String userData) throws IOException {
        Map<String, String> files = new LinkedHashMap<>();
        files.put("meta-data", "instance-id: " + instanceId + "\nlocal-hostname: seeded-" + instanceId + "\n");
        files.put("user-data", userData);
        files.put("network-config", "version: 2\nethernets:\n  eth0:\n    dhcp4: true\n");
        return make("cidata", files);
    }

    /** {@code genisoimage -V LABEL -J -r} of the files. */
    static byte[] make(String label, Map<String, String> files) throws IOException {
        Path dir = Files.createTempDirectory("seed-iso");
        try {
            List<String> cmd = new ArrayList<>(List.of("genisoimage", "-quiet", "-V", label, "-J", "-r", "-o"));
            cmd.add(dir.resolve("out.iso").toString());
            for (Map.Entry<String, String> f : files.entrySet()) {
                Path file = dir.resolve(f.getKey());
                Files.writeString(file, f.getValue(), StandardCharsets.UTF_8);
                cmd.add(file.toString());
            }
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IOException("genisoimage failed (Debian package genisoimage): " + out);
            }
            return Files.readAllBytes(dir.resolve("out.iso"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        } finally {
            try (var made = Files.list(dir)) {
                for (Path f : made.toList()) {
                    Files.delete(f);
                }
            }
            Files.delete(dir);
        }
    }
}
