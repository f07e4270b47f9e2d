package dev.bigfleet.proxmox.pvesim;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The guests of the cluster's VMs: each VM that starts with the agent enabled boots a guest over
 * its {@link GuestDisk}: a {@link GuestSandbox} once its boot delay has passed, or in the real-VM
 * lane a {@link QemuGuest} at once (it takes its own time to boot). Stopping the VM ends it (a
 * shutdown of a real VM goes through its agent first), destroying the VM deletes its disk. Boots
 * and halts are called with the cluster lock held; guests start on a thread of their own.
 */
final class Guests implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Guests.class);

    private final GuestMode mode;
    /** The sandbox's root file system, or the directory of the real VM's qcow2, kernel and initrd. */
    private final Path image;

    private final Path dir;
    private final ScheduledExecutorService boots;
    private final Map<Integer, Boot> running = new ConcurrentHashMap<>();
    /** Every boot not yet halted, the ones shutting down included. */
    private final java.util.Set<Boot> live = ConcurrentHashMap.newKeySet();

    private final AtomicInteger names = new AtomicInteger();
    private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(60);

    /**
     * @throws IllegalStateException naming the missing program when the guests cannot run here
     */
    Guests(GuestMode mode, Path image) {
        if (mode == GuestMode.VM) {
            requireProgram("qemu-system-x86_64", "qemu-system-x86");
            requireProgram("qemu-img", "qemu-utils");
            requireProgram("setpriv", "util-linux");
        } else {
            if (!GuestSandbox.isRoot()) {
                throw new IllegalStateException("the simulator's sandboxed guests need root: each mounts an overlay of"
                        + " its disk in a mount namespace of its own");
            }
            requireProgram("bwrap", "bubblewrap");
            requireProgram("unshare", "util-linux");
        }
        this.mode = mode;
        this.image = image;
        try {
            // short: the agent's socket path must fit in 108 bytes
            this.dir = Files.createTempDirectory("pvesim");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.boots = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "pve-simulator-guests");
            t.setDaemon(true);
            return t;
        });
    }

    private static void requireProgram(String program, String debianPackage) {
        String path = System.getenv().getOrDefault("PATH", "/usr/sbin:/usr/bin:/sbin:/bin");
        for (String dir : path.split(":", -1)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) {
                return;
            }
        }
        throw new IllegalStateException("the simulator's guests need " + program + ", which is not on the PATH"
                + " (Debian package " + debianPackage + ")");
    }

    /**
     * The files of a template whose guest's agent blocks {@code guest-exec} and {@code
     * guest-exec-status}: its {@code /etc/qemu/qemu-ga.conf}, which qemu-ga reads when it starts.
     */
    Path execBlockedLayer(int vmid) {
        Path layer = newDir("template", vmid);
        try {
            Path conf = Files.createDirectories(layer.resolve("etc/qemu")).resolve("qemu-ga.conf");
            Files.writeString(conf, "[general]\nblock-rpcs=guest-exec,guest-exec-status\n", StandardCharsets.UTF_8);
            for (Path p : List.of(layer, layer.resolve("etc"), layer.resolve("etc/qemu"))) {
                Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
            }
            Files.setPosixFilePermissions(conf, PosixFilePermissions.fromString("rw-r--r--"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return layer;
    }

    /** A directory for a new disk or boot. */
    Path newDir(String kind, int vmid) {
        return dir.resolve(kind + "-" + vmid + "-" + names.incrementAndGet());
    }

    /**
     * One power-on of a VM whose agent is enabled (or, in the sandbox lane, that boots a NoCloud seed
     * or has cloud-init's state on its disk): its sandbox once booted, until halted.
     */
    final class Boot {
        final int vmid;
        private final GuestDisk disk;
        private final Path runDir;
        private final String hostname;
        /** Whether QEMU made the agent's channel ({@code agent} enabled at the start). */
        private final boolean channel;
        /** The ISO images in the VM's CD-ROM drives at the start, as QEMU holds them open. */
        private final List<Path> cdroms;
        /** Whether cloud-init's state is on the disk: it runs at this boot, seed or not. */
        private final boolean cloudState;

        private GuestMachine sandbox;
        private boolean due;
        private boolean silenced;
        private boolean halted;

        Boot(
                int vmid,
                GuestDisk disk,
                Path runDir,
                String hostname,
                boolean silenced,
                boolean channel,
                List<Path> cdroms,
                boolean cloudState) {
            this.vmid = vmid;
            this.disk = disk;
            this.runDir = runDir;
            this.hostname = hostname;
            this.silenced = silenced;
            this.channel = channel;
            this.cdroms = List.copyOf(cdroms);
            this.cloudState = cloudState;
        }

        synchronized GuestMachine sandbox() {
            return halted ? null : sandbox;
        }

        /** The agent's socket, or null while there is none (or QEMU has no channel to it). */
        synchronized Path socket() {
            return halted || sandbox == null || !channel ? null : sandbox.socket();
        }

        /** The boot delay is over: the guest starts, unless its agent is to stay silent. */
        synchronized void due() {
            due = true;
            if (!halted && !silenced && sandbox == null) {
                try {
                    if (mode == GuestMode.VM) {
                        sandbox = QemuGuest.boot(image, disk.qcow2(), runDir, hostname);
                    } else {
                        Path seed = NoCloudSeed.extract(cdroms, runDir.resolve("seed"));
                        sandbox = GuestSandbox.boot(image, disk, runDir, hostname, seed, seed != null || cloudState);
                    }
                } catch (RuntimeException e) {
                    LOG.error("the guest of VM {} cannot boot", vmid, e);
                    return;
                }
                GuestMachine s = sandbox;
                s.onExit(() -> {
                    synchronized (this) {
                        if (!halted) {
                            LOG.warn("the guest of VM {} ended on its own: {}", vmid, s.console());
                        }
                    }
                });
            }
        }

        /** Silenced, the agent answers nothing (a running one is frozen); unsilenced it goes on. */
        synchronized void silence(boolean on) {
            silenced = on;
            if (halted) {
                return;
            }
            if (sandbox != null) {
                sandbox.freezeAgent(on);
            } else if (!on && due) {
                due();
            }
        }

        synchronized void halt() {
            halted = true;
            live.remove(this);
            if (sandbox != null) {
                sandbox.halt();
                sandbox = null;
            }
        }

        /** A shutdown: a real VM through its agent (see {@link QemuGuest#shutdown}), a sandbox halted. */
        synchronized void shutdown() {
            if (sandbox instanceof QemuGuest vm && !halted) {
                halted = true;
                vm.shutdown(SHUTDOWN_TIMEOUT);
                live.remove(this);
                sandbox = null;
            } else {
                halt();
            }
        }
    }

    /**
     * QEMU is up: a VM started with the agent enabled boots its guest after {@code bootDelay}; its
     * agent stays silent while {@code agentNeverUp}. A VM without the agent has no agent channel.
     */
    @SuppressWarnings("FutureReturnValueIgnored") // the boot runs, or does nothing once halted
    void powerOn(Vm vm, Duration bootDelay, List<Path> cdroms) {
        powerOff(vm.vmid);
        boolean cloudState = mode == GuestMode.SANDBOX && vm.disk != null && vm.disk.holdsCloudInitState();
        boolean seedOrState = mode == GuestMode.SANDBOX && (!cdroms.isEmpty() || cloudState);
        if (!vm.agentEnabled() && !seedOrState) {
            return;
        }
        if (vm.disk == null || vm.disk.dir == null) {
            vm.disk = cloneDisk(vm.disk == null ? GuestDisk.IMAGE : vm.disk, false, newDir("disk", vm.vmid));
        }
        if (mode == GuestMode.VM) {
            bootDelay = Duration.ZERO; // a real guest boots in its own time
        }
        String hostname = vm.name() == null ? "vm-" + vm.vmid : vm.name();
        Path runDir = newDir("run", vm.vmid);
        List<Path> held = new java.util.ArrayList<>();
        if (mode == GuestMode.SANDBOX) {
            for (Path iso : cdroms) {
                held.add(NoCloudSeed.hold(iso, runDir.resolve("cdrom-" + held.size() + ".iso")));
            }
        }
        Boot boot = new Boot(vm.vmid, vm.disk, runDir, hostname, vm.agentNeverUp, vm.agentEnabled(), held, cloudState);
        running.put(vm.vmid, boot);
        live.add(boot);
        boots.schedule(boot::due, bootDelay.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** See {@link Boot#silence}; nothing for a VM without a running guest. */
    void silence(int vmid, boolean on) {
        Boot b = running.get(vmid);
        if (b != null) {
            b.silence(on);
        }
    }

    /** A clone's disk: a copy of {@code source} ({@code full}) or one sharing it, in {@code newDir}. */
    GuestDisk cloneDisk(GuestDisk source, boolean full, Path newDir) {
        if (mode == GuestMode.VM) {
            Path from = source.dir == null ? image.resolve("guest.qcow2") : source.qcow2();
            return full ? GuestDisk.qcowCopy(from, newDir) : GuestDisk.qcowLinked(from, newDir);
        }
        return full ? source.fullCopy(newDir) : source.linkedClone(newDir);
    }

    /** QEMU quits: the guest is gone, with everything in its {@code /run}. */
    void powerOff(int vmid) {
        Boot b = running.remove(vmid);
        if (b != null) {
            b.halt();
        }
    }

    /**
     * The VM shuts down: a real VM's guest is asked through its agent and waited for (on the guests'
     * thread, so that a start that follows waits for it), a sandbox is halted.
     */
    @SuppressWarnings("FutureReturnValueIgnored") // it runs before any later boot; nothing waits on it
    void shutdown(int vmid) {
        Boot b = running.remove(vmid);
        if (b == null) {
            return;
        }
        if (mode == GuestMode.VM) {
            boots.submit(b::shutdown);
        } else {
            b.halt();
        }
    }

    /** The VM and its disks are gone. */
    void destroy(Vm vm) {
        powerOff(vm.vmid);
        if (vm.disk != null && vm.disk.dir != null) {
            HostFiles.deleteTree(vm.disk.dir);
        }
    }

    /** The running boot of a VM, or null (stopped, or started without the agent). */
    Boot boot(int vmid) {
        return running.get(vmid);
    }

    /** Whether the VM's agent listens right now. */
    boolean agentListening(int vmid) {
        Boot b = running.get(vmid);
        Path socket = b == null ? null : b.socket();
        return socket != null && Files.exists(socket);
    }

    @Override
    public void close() {
        // halted first: a guest dies with the thread that started it
        running.clear();
        for (Boot b : List.copyOf(live)) {
            b.halt();
        }
        boots.shutdownNow();
        HostFiles.deleteTree(dir);
    }
}
