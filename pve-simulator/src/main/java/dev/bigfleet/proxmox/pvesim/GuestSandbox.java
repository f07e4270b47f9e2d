package dev.bigfleet.proxmox.pvesim;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One booted guest: Debian's qemu-guest-agent in a bubblewrap sandbox whose root is an overlay of
 * the VM's disk layers over the guest image, mounted in a mount namespace of its own (so it goes
 * away with the sandbox). The guest has its own PID, IPC, UTS (hostname = the VM's name) and
 * network namespace, a fresh {@code /run} (a tmpfs, as in a booted system), and keeps its agent
 * running: when the agent dies it is started again, as an init system would. The agent serves
 * {@code channel/qga.sock} in the boot's directory; everything the guest writes to its disk stays
 * in the VM's writable layer.
 *
 * <p>A guest that boots with a NoCloud seed (the files of a {@code cidata} ISO, bound read-only at
 * {@code /var/lib/cloud/seed/nocloud}), or whose disk holds cloud-init's state from an earlier boot,
 * runs cloud-init's four stages ({@code init --local}, {@code init}, {@code modules --mode=config},
 * {@code modules --mode=final}) one after the other beside the agent, as systemd runs its four units
 * at boot; each stage runs whether the one before it failed or not.
 */
final class GuestSandbox implements GuestMachine {
    private static final String CHANNEL_IN_GUEST = "/run/qemu-ga-channel";
    private static final String PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
    /** The guest's init: the agent with the umask of a systemd service, restarted when it ends. */
    private static final String INIT = "umask 022; while :; do /usr/sbin/qemu-ga --method=unix-listen --path="
            + CHANNEL_IN_GUEST + "/qga.sock; sleep 0.1; done";
    /** cloud-init's units in their order (cloud-init-local, cloud-init, cloud-config, cloud-final). */
    private static final String CLOUD_INIT = "(for stage in 'init --local' init 'modules --mode=config'"
            + " 'modules --mode=final'; do /usr/bin/cloud-init $stage; done) </dev/null & ";
    /** Where cloud-init's NoCloud datasource looks for a seed directory. */
    static final String SEED_IN_GUEST = "/var/lib/cloud/seed/nocloud";
    /** Mounts the overlay (in the new mount namespace) and becomes bubblewrap. */
    private static final String MOUNT_THEN_SANDBOX =
            "mount -t overlay overlay -o \"$1\" \"$2\" && shift 2 && exec \"$@\"";

    private final Process process;
    private final Path socket;
    private final Path log;
    /** Named on the command line of every bubblewrap process of this guest. */
    private final String marker;

    private GuestSandbox(Process process, Path socket, Path log, String marker) {
        this.process = process;
        this.socket = socket;
        this.log = log;
        this.marker = marker;
    }

    /**
     * Starts the guest; returns once its processes run (the agent's socket follows a moment later).
     *
     * @param runDir a fresh directory for this boot: mount point, agent channel and console log
     * @param seed the NoCloud seed's files, or null
     * @param cloudInit whether cloud-init runs at this boot
     */
    static GuestSandbox boot(Path image, GuestDisk disk, Path runDir, String hostname, Path seed, boolean cloudInit) {
        try {
            Path merged = Files.createDirectories(runDir.resolve("root"));
            Path channel = Files.createDirectories(runDir.resolve("channel"));
            Path log = runDir.resolve("console.log");
            List<Path> lowers = new ArrayList<>(disk.lowers);
            lowers.add(image);
            StringBuilder lowerdir = new StringBuilder();
            for (Path l : lowers) {
                lowerdir.append(lowerdir.length() == 0 ? "" : ":").append(safe(l));
            }
            String options =
                    "lowerdir=" + lowerdir + ",upperdir=" + safe(disk.upper()) + ",workdir=" + safe(disk.work());
            List<String> cmd = new ArrayList<>(List.of(
                    "unshare", "--mount", "--propagation", "private", "/bin/sh", "-c", MOUNT_THEN_SANDBOX, "guest"));
            cmd.addAll(List.of(options, merged.toString()));
            cmd.addAll(List.of(
                    "bwrap",
                    "--bind",
                    merged.toString(),
                    "/",
                    "--proc",
                    "/proc",
                    "--dev",
                    "/dev",
                    "--tmpfs",
                    "/run",
                    "--bind",
                    channel.toString(),
                    CHANNEL_IN_GUEST));
            if (seed != null) {
                cmd.addAll(List.of("--ro-bind", seed.toString(), SEED_IN_GUEST));
            }
            cmd.addAll(List.of(
                    "--unshare-all",
                    "--hostname",
                    hostname,
                    "--die-with-parent",
                    "--new-session",
                    "--clearenv",
                    "--setenv",
                    "PATH",
                    PATH,
                    "--setenv",
                    "HOME",
                    "/root",
                    "--setenv",
                    "LANG",
                    "C.UTF-8",
                    "--chdir",
                    "/",
                    "/bin/sh",
                    "-c",
                    (cloudInit ? "umask 022; " + CLOUD_INIT : "") + INIT));
            Process p = new ProcessBuilder(cmd)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .start();
            return new GuestSandbox(p, channel.resolve("qga.sock"), log, merged.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the guest sandbox (is bubblewrap installed?)", e);
        }
    }

    /** Overlay options are comma and colon separated: a path holding either cannot be named. */
    private static String safe(Path p) {
        String s = p.toAbsolutePath().toString();
        if (s.contains(",") || s.contains(":")) {
            throw new IllegalArgumentException("a guest disk path may hold neither ',' nor ':': " + s);
        }
        return s;
    }

    /** Whether this process runs as root, as mounting a guest's overlay needs. */
    static boolean isRoot() {
        try {
            return Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    @Override
    public Path socket() {
        return socket;
    }

    @Override
    @SuppressWarnings("FutureReturnValueIgnored") // a callback, nothing waits on it
    public void onExit(Runnable action) {
        process.onExit().thenRun(action);
    }

    /** What the sandbox printed (mount and bubblewrap errors, the agent's complaints). */
    @Override
    public String console() {
        try {
            return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            return "";
        }
    }

    /**
     * Powers the guest off: every process in it is killed and its mount namespace goes with them.
     * Bubblewrap's sandbox init dies with bubblewrap, except when bubblewrap is killed before the
     * init has asked for that; such an orphan is found by this guest's root on its command line.
     */
    @Override
    public void halt() {
        process.destroyForcibly();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the guest sandbox did not end within 10 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        ProcessHandle.allProcesses()
                .filter(h -> h.info()
                        .arguments()
                        .map(args -> java.util.Arrays.asList(args).contains(marker))
                        .orElse(false))
                .forEach(ProcessHandle::destroyForcibly);
    }

    /**
     * The guest's root as the host sees it: {@code /proc/<pid>/root} of its init (absolute symbolic
     * links below it point at the host's root, so a reader resolves them itself).
     */
    @Override
    public Optional<Path> root() {
        if (!process.isAlive()) {
            return Optional.empty();
        }
        // a child of bubblewrap's sandbox init that is not bubblewrap itself: the shell that mounts
        // the overlay runs on the host's root until it becomes bubblewrap
        return process.toHandle()
                .descendants()
                .filter(h -> !comm(h.pid()).equals("bwrap")
                        && h.parent().map(p -> comm(p.pid()).equals("bwrap")).orElse(false))
                .findFirst()
                .map(h -> Path.of("/proc", Long.toString(h.pid()), "root"));
    }

    /** Kills the running agent; the guest starts a new one, which knows nothing of the old one's commands. */
    @Override
    public void restartAgent() {
        agentPid().ifPresent(pid -> signal("KILL", pid));
    }

    /**
     * Stops (or continues) the agent process: its socket still accepts, nothing answers. Waits a
     * moment for an agent that is just starting.
     */
    @Override
    public void freezeAgent(boolean frozen) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        Optional<Long> pid = agentPid();
        while (pid.isEmpty() && process.isAlive() && System.nanoTime() < deadline) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            pid = agentPid();
        }
        pid.ifPresent(p -> signal(frozen ? "STOP" : "CONT", p));
    }

    /** The host PID of the guest's qemu-ga. */
    Optional<Long> agentPid() {
        return process.toHandle()
                .descendants()
                .filter(h -> "qemu-ga".equals(comm(h.pid())))
                .map(ProcessHandle::pid)
                .findFirst();
    }

    private static String comm(long pid) {
        try {
            return Files.readString(Path.of("/proc", Long.toString(pid), "comm"), StandardCharsets.UTF_8)
                    .strip();
        } catch (IOException e) {
            return "";
        }
    }

    private static void signal(String sig, long pid) {
        try {
            Process k = new ProcessBuilder("kill", "-s", sig, Long.toString(pid))
                    .redirectErrorStream(true)
                    .start();
            k.getInputStream().readAllBytes();
            k.waitFor(10, TimeUnit.SECONDS);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
