package dev.bigfleet.proxmox.server.proxmox;

import dev.bigfleet.proxmox.pvesim.NodeSpec;
import dev.bigfleet.proxmox.pvesim.PveSimulator;
import dev.bigfleet.proxmox.pvesim.SimulatorConfig;
import dev.bigfleet.proxmox.pvesim.VmView;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A simulated two-node Proxmox cluster (pve1, pve2, template 9000) for provider tests, with the
 * files a provider reads the way Kubernetes mounts a Secret: {@code ca.pem} and {@code token} are
 * symlinks into {@code ..data}, which {@link #publishCa()} swaps to a new directory in one rename,
 * as the kubelet does when the Secret changes.
 */
public final class SimulatedProxmox implements AutoCloseable {
    public static final String TOKEN_ID = "bigfleet@pve!provider";
    public static final String SECRET = "5ec7e7aa-70ce-4e11-b1ab-5e5e5e5e5e01";
    /** Nodes big enough that memory admission never refuses a test's Creates. */
    private static final long NODE_MEMORY = 1L << 50;

    public final PveSimulator sim;
    private final Path volume;
    private int generation;

    private SimulatedProxmox(PveSimulator sim, Path volume) {
        this.sim = sim;
        this.volume = volume;
    }

    /** @param latency the simulator's unit of delay (a clone takes 3x, a guest agent boots in 5x) */
    public static SimulatedProxmox start(Path dir, Duration latency) throws IOException {
        PveSimulator sim = PveSimulator.start(SimulatorConfig.builder()
                .node(NodeSpec.of("pve1").withCapacity(1024, NODE_MEMORY))
                .node(NodeSpec.of("pve2").withCapacity(1024, NODE_MEMORY))
                .templateVmid(9000)
                .token(TOKEN_ID + "=" + SECRET)
                .tlsDir(Files.createDirectories(dir.resolve("simulator")))
                .latency(latency)
                .build());
        SimulatedProxmox cluster = new SimulatedProxmox(sim, Files.createDirectories(dir.resolve("secret")));
        cluster.publishCa();
        return cluster;
    }

    /** The flags that run a provider on this cluster through its real backend. */
    public List<String> providerFlags() {
        return List.of(
                "--proxmox-backend",
                "proxmox",
                "--proxmox-api-url",
                sim.apiUrl().toString(),
                "--proxmox-token-id",
                TOKEN_ID,
                "--proxmox-token-file",
                volume.resolve("token").toString(),
                "--proxmox-ca-file",
                volume.resolve("ca.pem").toString(),
                "--nodes",
                "pve1,pve2");
    }

    /** Publishes the simulator's current CA (and the token) as a new generation of the Secret. */
    public void publishCa() throws IOException {
        Path next = Files.createDirectory(volume.resolve("..2026_01_01_00_00_0" + generation++ + ".1"));
        Files.copy(sim.caCertificate(), next.resolve("ca.pem"));
        Files.writeString(next.resolve("token"), SECRET + "\n", StandardCharsets.UTF_8);
        for (String name : List.of("ca.pem", "token")) {
            Path link = volume.resolve(name);
            if (!Files.isSymbolicLink(link)) {
                Files.createSymbolicLink(link, Path.of("..data", name));
            }
        }
        Path swap = Files.createSymbolicLink(volume.resolve("..data_tmp"), next.getFileName());
        Files.move(swap, volume.resolve("..data"), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Every VM that is not a template. */
    public List<VmView> clones() {
        return sim.vms().stream().filter(v -> !v.template()).toList();
    }

    /** The machine id in a clone's description, if it has one. */
    public static Optional<String> machineOf(VmView vm) {
        String d = vm.description() == null ? "" : vm.description();
        return d.lines()
                .filter(l -> l.startsWith("bigfleet-machine-id="))
                .map(l -> l.substring("bigfleet-machine-id=".length()))
                .findFirst();
    }

    /** Machine id to the VMIDs of the clones that carry it; a clone without a machine id is under "". */
    public Map<String, List<Integer>> clonesByMachine() {
        return clones().stream()
                .collect(Collectors.groupingBy(
                        v -> machineOf(v).orElse(""),
                        Collectors.mapping(VmView::vmid, Collectors.toCollection(ArrayList::new))));
    }

    @Override
    public void close() {
        sim.close();
    }
}
