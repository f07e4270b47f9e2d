package dev.bigfleet.proxmox.pvesim;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The root file system every simulated guest boots: a small Debian 12 with qemu-guest-agent, the
 * setup kit's hooks and the kubeadm/kubectl test stand-ins, made by {@code
 * pve-simulator/guest-image/build.sh} and cached by it. {@link #rootfs()} finds it once per process:
 * the directory named by the system property {@value #PROPERTY} or the environment variable
 * {@value #ENV} when set, else what the build script prints (building it when its cache is cold).
 */
public final class GuestImage {
    public static final String PROPERTY = "bigfleet.guest-rootfs";
    public static final String ENV = "BIGFLEET_GUEST_ROOTFS";
    static final String SCRIPT = "pve-simulator/guest-image/build.sh";
    private static final long BUILD_MINUTES = 15;

    public static final String VM_PROPERTY = "bigfleet.guest-vm-image";
    public static final String VM_ENV = "BIGFLEET_GUEST_VM_IMAGE";

    private static Path rootfs;
    private static Path vmImage;

    private GuestImage() {}

    /**
     * The real-VM lane's image directory ({@code guest.qcow2}, {@code vmlinuz}, {@code initrd.img}):
     * named by {@value #VM_PROPERTY} or {@value #VM_ENV}, else built by the script with {@code --vm}.
     */
    public static synchronized Path vmImage() {
        if (vmImage == null) {
            String given = System.getProperty(VM_PROPERTY, System.getenv(VM_ENV));
            Path dir = given != null && !given.isBlank()
                    ? Path.of(given)
                    : Path.of(run(findScript(), "--vm").strip());
            for (String f : List.of("guest.qcow2", "vmlinuz", "initrd.img")) {
                if (!Files.isRegularFile(dir.resolve(f))) {
                    throw new IllegalStateException("the guest VM image " + dir + " has no " + f);
                }
            }
            vmImage = dir;
        }
        return vmImage;
    }

    /**
     * The guest root file system's directory.
     *
     * @throws IllegalStateException naming what is missing when it can be neither found nor built
     */
    public static synchronized Path rootfs() {
        if (rootfs == null) {
            rootfs = locate();
        }
        return rootfs;
    }

    private static Path locate() {
        String given = System.getProperty(PROPERTY, System.getenv(ENV));
        if (given != null && !given.isBlank()) {
            return requireRootfs(Path.of(given), (System.getProperty(PROPERTY) != null ? "-D" + PROPERTY : ENV));
        }
        Path script = findScript();
        String out = run(script, null);
        return requireRootfs(Path.of(out.strip()), script.toString());
    }

    private static Path requireRootfs(Path dir, String from) {
        if (!Files.isExecutable(dir.resolve("usr/sbin/qemu-ga")) || !Files.isExecutable(dir.resolve("bin/sh"))) {
            throw new IllegalStateException(
                    "the guest root file system " + dir + " (from " + from + ") has no usr/sbin/qemu-ga or bin/sh");
        }
        return dir;
    }

    /** The build script, looked for above the working directory and above this class's jar. */
    private static Path findScript() {
        for (Path start : List.of(Path.of("").toAbsolutePath(), codeLocation())) {
            for (Path p = start; p != null; p = p.getParent()) {
                Path script = p.resolve(SCRIPT);
                if (Files.isRegularFile(script)) {
                    return script;
                }
            }
        }
        throw new IllegalStateException("no guest image: " + SCRIPT + " is not above "
                + Path.of("").toAbsolutePath() + "; set " + ENV + " to a root file system built by it");
    }

    private static Path codeLocation() {
        try {
            return Path.of(GuestImage.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
        } catch (Exception e) {
            return Path.of("").toAbsolutePath();
        }
    }

    private static String run(Path script, String argument) {
        try {
            Path err = Files.createTempFile("pve-simulator-guest-image", ".log");
            try {
                List<String> cmd = new java.util.ArrayList<>(List.of("bash", script.toString()));
                if (argument != null) {
                    cmd.add(argument);
                }
                Process p = new ProcessBuilder(cmd)
                        .redirectError(err.toFile())
                        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                        .start();
                byte[] out = p.getInputStream().readAllBytes();
                if (!p.waitFor(BUILD_MINUTES, TimeUnit.MINUTES)) {
                    p.destroyForcibly();
                    throw new IllegalStateException(script + " did not finish in " + BUILD_MINUTES + " minutes");
                }
                if (p.exitValue() != 0) {
                    throw new IllegalStateException("the guest image could not be built: " + script + " exited with "
                            + p.exitValue() + ": " + tail(Files.readString(err, StandardCharsets.UTF_8))
                            + " (it needs root, mmdebstrap and Debian's package mirror; the guests need"
                            + " bubblewrap)");
                }
                return new String(out, StandardCharsets.UTF_8);
            } finally {
                Files.deleteIfExists(err);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + script + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while building the guest image", e);
        }
    }

    private static String tail(String text) {
        String t = text.strip();
        return t.length() <= 2000 ? t : "..." + t.substring(t.length() - 2000);
    }
}
