package dev.bigfleet.proxmox.pvesim;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A guest that is a whole virtual machine: {@code qemu-system-x86_64} under software emulation
 * ({@code -accel tcg}) booting the guest image's kernel and initrd with the VM's qcow2 disk, its
 * agent on a virtio serial port whose host end is a socket QEMU serves (so a command written before
 * the agent runs waits for it, as on Proxmox), and a QMP socket through which it is stopped. The
 * host name is handed over on the kernel command line, as cloud-init would set it.
 */
final class QemuGuest implements GuestMachine {
    /** Memory of every guest, whatever its config says: enough for systemd and the agent. */
    static final int MEMORY_MIB = 256;

    private final Process process;
    private final Path socket;
    private final Path qmp;
    private final Path console;

    private QemuGuest(Process process, Path socket, Path qmp, Path console) {
        this.process = process;
        this.socket = socket;
        this.qmp = qmp;
        this.console = console;
    }

    /**
     * Starts QEMU; returns once it runs (its sockets appear a moment later, the agent answers once
     * the guest has booted).
     *
     * @param image the directory holding {@code vmlinuz} and {@code initrd.img}
     */
    static QemuGuest boot(Path image, Path disk, Path runDir, String hostname) {
        try {
            Files.createDirectories(runDir);
            Path socket = runDir.resolve("qga.sock");
            Path qmp = runDir.resolve("qmp.sock");
            Path console = runDir.resolve("console.log");
            List<String> cmd = List.of(
                    // killed with the thread that started it, should this process die first
                    "setpriv",
                    "--pdeathsig",
                    "KILL",
                    "--",
                    "qemu-system-x86_64",
                    "-name",
                    "guest=" + hostname,
                    "-accel",
                    "tcg,tb-size=64",
                    "-m",
                    Integer.toString(MEMORY_MIB),
                    "-smp",
                    "1",
                    "-nodefaults",
                    "-no-user-config",
                    "-display",
                    "none",
                    "-kernel",
                    image.resolve("vmlinuz").toString(),
                    "-initrd",
                    image.resolve("initrd.img").toString(),
                    "-append",
                    "root=/dev/vda rw console=ttyS0 quiet systemd.hostname=" + hostname,
                    "-drive",
                    "file=" + disk + ",if=virtio,format=qcow2",
                    "-device",
                    "virtio-serial-pci",
                    "-chardev",
                    "socket,id=qga0,path=" + socket + ",server=on,wait=off",
                    "-device",
                    "virtserialport,chardev=qga0,name=org.qemu.guest_agent.0",
                    "-chardev",
                    "socket,id=qmp,path=" + qmp + ",server=on,wait=off",
                    "-mon",
                    "chardev=qmp,mode=control",
                    "-serial",
                    "file:" + console,
                    "-nic",
                    "none");
            Process p = new ProcessBuilder(cmd)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(
                            runDir.resolve("qemu.log").toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .start();
            return new QemuGuest(p, socket, qmp, console);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start QEMU (is qemu-system-x86 installed?)", e);
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

    /** The guest's serial console, then what QEMU itself printed, if anything. */
    @Override
    public String console() {
        String qemu = read(console.resolveSibling("qemu.log"));
        return read(console) + (qemu.isBlank() ? "" : "\n[qemu] " + qemu.strip());
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            return "";
        }
    }

    /** Stop, as qemu-server's {@code vm_stop}: QMP {@code quit}, then the process is killed if it stays. */
    @Override
    public void halt() {
        try {
            qmp("quit");
        } catch (IOException e) {
            // QEMU not answering: it is killed below
        }
        awaitExit(Duration.ofSeconds(10));
        process.destroyForcibly();
        awaitExit(Duration.ofSeconds(10));
    }

    /**
     * Shutdown, as qemu-server's {@code vm_shutdown} with the agent enabled: {@code guest-shutdown}
     * through the agent, then waiting for QEMU to end; a guest that does not is stopped.
     */
    void shutdown(Duration timeout) {
        try {
            new AgentChannel(() -> socket).command("guest-shutdown", null, AgentChannel.TIMEOUT);
        } catch (AgentChannel.Failure e) {
            // guest-shutdown may close the channel without an answer
        }
        if (!awaitExit(timeout)) {
            halt();
        }
    }

    private boolean awaitExit(Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !process.isAlive();
        }
    }

    /** One QMP command on a connection of its own, after the greeting and {@code qmp_capabilities}. */
    private JsonNode qmp(String command) throws IOException {
        try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            ch.connect(UnixDomainSocketAddress.of(qmp));
            BufferedReader in =
                    new BufferedReader(new InputStreamReader(Channels.newInputStream(ch), StandardCharsets.UTF_8));
            OutputStream out = Channels.newOutputStream(ch);
            in.readLine(); // the greeting
            out.write("{\"execute\":\"qmp_capabilities\"}\n".getBytes(StandardCharsets.UTF_8));
            in.readLine();
            out.write(("{\"execute\":\"" + command + "\"}\n").getBytes(StandardCharsets.UTF_8));
            String line = in.readLine();
            return line == null ? null : ApiHandler.JSON.readTree(line);
        }
    }

    @Override
    public void restartAgent() {
        throw new UnsupportedOperationException("agent faults are injected in the sandbox guests only");
    }

    @Override
    public void freezeAgent(boolean frozen) {
        throw new UnsupportedOperationException("agent faults are injected in the sandbox guests only");
    }
}
