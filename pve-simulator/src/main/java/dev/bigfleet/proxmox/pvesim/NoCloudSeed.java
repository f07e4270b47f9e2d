package dev.bigfleet.proxmox.pvesim;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The NoCloud seed a sandboxed guest's cloud-init reads: the files of an ISO 9660 image labelled
 * {@code cidata} (or {@code CIDATA}) in one of the VM's CD-ROM drives, the devices cloud-init's
 * NoCloud datasource looks for on a real VM. The label is read as cloud-init reads it, with {@code
 * blkid}; the files are taken out of the image with {@code xorriso} (Rock Ridge and Joliet names
 * as a mount shows them) into a directory the sandbox binds read-only where NoCloud looks for a seed
 * directory.
 */
final class NoCloudSeed {
    private static final Logger LOG = LoggerFactory.getLogger(NoCloudSeed.class);
    private static final long TOOL_SECONDS = 60;

    private NoCloudSeed() {}

    /**
     * Keeps the image as QEMU keeps it while the VM runs: a hard link to the same file (a copy when
     * the two directories are on different file systems), so that deleting the volume later does not
     * take it from the running guest.
     */
    static Path hold(Path iso, Path to) {
        try {
            Files.createDirectories(to.getParent());
            try {
                return Files.createLink(to, iso);
            } catch (IOException | UnsupportedOperationException e) {
                return Files.copy(iso, to);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The files of the first image labelled {@code cidata}, extracted into {@code dir}; null when no
     * image is one (or it cannot be read, which is logged).
     */
    static Path extract(List<Path> isos, Path dir) {
        for (Path iso : isos) {
            Map<String, String> probe = blkid(iso);
            String label = probe.get("LABEL");
            if (!"cidata".equals(label) && !"CIDATA".equals(label)) {
                continue;
            }
            if (!"iso9660".equals(probe.get("TYPE"))) {
                LOG.warn("a {} file system labelled {} is not read by the simulator", probe.get("TYPE"), label);
                continue;
            }
            String out = run("xorriso", "-osirrox", "on", "-indev", iso.toString(), "-extract", "/", dir.toString());
            if (out != null) {
                return dir;
            }
        }
        return null;
    }

    /** {@code blkid -p -o export}: the probed TYPE, LABEL, ...; empty when nothing is found. */
    private static Map<String, String> blkid(Path file) {
        Map<String, String> out = new HashMap<>();
        String text = run("blkid", "-p", "-o", "export", file.toString());
        if (text == null) {
            return out;
        }
        for (String line : text.split("\n", -1)) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                out.put(line.substring(0, eq), line.substring(eq + 1).replace("\\ ", " "));
            }
        }
        return out;
    }

    /** The program on the PATH, or in {@code /usr/sbin} and {@code /sbin}, where Debian puts blkid. */
    private static String program(String name) {
        String path = System.getenv().getOrDefault("PATH", "") + ":/usr/sbin:/sbin";
        for (String d : path.split(":", -1)) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, name))) {
                return Path.of(d, name).toString();
            }
        }
        return name;
    }

    /** The program's output, or null (logged) when it cannot run or fails. */
    private static String run(String... command) {
        String[] resolved = command.clone();
        resolved[0] = program(command[0]);
        try {
            Process p = new ProcessBuilder(resolved)
                    .redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(TOOL_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                LOG.error("{} did not finish in {} s", command[0], TOOL_SECONDS);
                return null;
            }
            if (p.exitValue() != 0) {
                if (!command[0].equals("blkid")) {
                    LOG.error("{} failed ({}): {}", String.join(" ", command), p.exitValue(), out.strip());
                }
                return null;
            }
            return out;
        } catch (IOException e) {
            LOG.error(
                    "cannot run {} to read a VM's cidata ISO (Debian packages: blkid is in util-linux, xorriso in"
                            + " xorriso): {}",
                    command[0],
                    e.toString());
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
