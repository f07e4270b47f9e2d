package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.api.CapacityType;
import dev.bigfleet.proxmox.api.InstanceType;
import dev.bigfleet.proxmox.api.InstanceTypeCatalog;
import dev.bigfleet.proxmox.api.Offering;
import dev.bigfleet.proxmox.pvesim.NodeSpec;
import dev.bigfleet.proxmox.pvesim.PveSimulator;
import dev.bigfleet.proxmox.pvesim.SimulatorConfig;
import dev.bigfleet.proxmox.pvesim.StorageSpec;
import dev.bigfleet.proxmox.pvesim.TemplateSpec;
import dev.bigfleet.proxmox.spi.ApiCallRecorder;
import dev.bigfleet.proxmox.spi.BackendContext;
import dev.bigfleet.proxmox.spi.BackendOptions;
import dev.bigfleet.proxmox.spi.CloneSpec;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A simulated two-node cluster (pve1, pve2) with template 9000 on pve1 (on shared storage) and pool
 * {@code bigfleet}, or a three-node one on node-local storage ({@link #localStorage}), and backends
 * built through the real factory against it over HTTPS.
 */
final class SimCluster implements AutoCloseable {
    static final String TOKEN_ID = "bigfleet@pve!autoscaler";
    /** Distinctive, so a leak is easy to find. */
    static final String SECRET = "5ec7e7aa-70ce-4e11-b1ab-5ec7e75ec7e7";

    static final String POOL = "bigfleet";
    static final InstanceTypeCatalog CATALOG = InstanceTypeCatalog.builtIn(9000);
    static final InstanceType SMALL = CATALOG.find("pve.small").orElseThrow();

    final PveSimulator sim;
    private final Path secretFile;

    private SimCluster(PveSimulator sim, Path secretFile) {
        this.sim = sim;
        this.secretFile = secretFile;
    }

    static SimCluster start() {
        return start(b -> {});
    }

    static SimCluster start(Consumer<SimulatorConfig.Builder> customize) {
        SimulatorConfig.Builder b = SimulatorConfig.builder()
                .nodes("pve1", "pve2")
                .templateVmid(9000)
                .pool(POOL)
                .token(TOKEN_ID + "=" + SECRET);
        customize.accept(b);
        return start(b);
    }

    static final List<String> THREE_NODES = List.of("pve1", "pve2", "pve3");
    static final String TEMPLATE_TAG = "bigfleet-template";

    /**
     * Three nodes on the installer's layout ({@code local}, {@code local-lvm} per node, no shared
     * storage), each with its own template on {@code local-lvm}: 9001 on pve1, 9002 on pve2, 9003 on
     * pve3, tagged {@value #TEMPLATE_TAG}.
     */
    static SimCluster localStorage(Consumer<SimulatorConfig.Builder> customize) {
        return localStorage(THREE_NODES.stream().map(NodeSpec::of).toList(), customize);
    }

    /** As {@link #localStorage(Consumer)} with these three nodes (bridges, capacity). */
    static SimCluster localStorage(List<NodeSpec> nodes, Consumer<SimulatorConfig.Builder> customize) {
        SimulatorConfig.Builder b = SimulatorConfig.builder();
        nodes.forEach(b::node);
        b.storage(StorageSpec.local())
                .storage(StorageSpec.localLvm())
                .pool(POOL)
                .token(TOKEN_ID + "=" + SECRET);
        for (int i = 0; i < 3; i++) {
            b.template(TemplateSpec.of(9001 + i, THREE_NODES.get(i))
                    .withStorage("local-lvm")
                    .withTags("k8s;" + TEMPLATE_TAG));
        }
        customize.accept(b);
        return start(b);
    }

    /** One offering of 4 slots of {@code type} on each of the three nodes. */
    static List<Offering> onEachNode(String type) {
        return THREE_NODES.stream()
                .map(n -> new Offering(type, n, CapacityType.ON_DEMAND, 4, Map.of(), Map.of()))
                .toList();
    }

    private static SimCluster start(SimulatorConfig.Builder b) {
        try {
            PveSimulator sim = PveSimulator.start(b.build());
            Path secret = Files.createTempFile("pve-token", ".secret");
            Files.writeString(secret, SECRET + "\n", StandardCharsets.UTF_8);
            return new SimCluster(sim, secret);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The flags a server would pass: CA mode, token from a file, the pool, a short agent timeout. */
    Map<String, String> options() {
        Map<String, String> o = new LinkedHashMap<>();
        o.put("api-url", sim.apiUrl().toString());
        o.put("token-id", TOKEN_ID);
        o.put("token-file", secretFile.toString());
        o.put("ca-file", sim.caCertificate().toString());
        o.put("pool", POOL);
        o.put("agent-timeout", "20s");
        return o;
    }

    static List<Offering> offerings() {
        return List.of(
                new Offering("pve.small", "pve1", CapacityType.ON_DEMAND, 4, Map.of(), Map.of()),
                new Offering("pve.small", "pve2", CapacityType.ON_DEMAND, 4, Map.of(), Map.of()));
    }

    ProxmoxBackend backend(String provider, ApiCallRecorder recorder) throws Exception {
        return backend(provider, Map.of(), recorder);
    }

    ProxmoxBackend backend(String provider, Map<String, String> overrides, ApiCallRecorder recorder) throws Exception {
        return backend(provider, List.of("pve1", "pve2"), CATALOG, offerings(), overrides, recorder);
    }

    ProxmoxBackend backend(
            String provider,
            List<String> nodes,
            InstanceTypeCatalog catalog,
            List<Offering> offerings,
            Map<String, String> overrides,
            ApiCallRecorder recorder)
            throws Exception {
        Map<String, String> o = new LinkedHashMap<>(options());
        o.putAll(overrides);
        o.values().removeIf(v -> v == null || v.isEmpty());
        return new ProxmoxApiBackendFactory()
                .create(new BackendContext(provider, nodes, catalog, offerings, BackendOptions.of(o), recorder));
    }

    /** An instance type with backend settings, each value JSON text as the catalog file hands it over. */
    static InstanceType type(String name, Map<String, String> settings) {
        return new InstanceType(name, 2, 4096, 9000, settings);
    }

    static InstanceTypeCatalog catalog(InstanceType... types) {
        return new InstanceTypeCatalog(List.of(types));
    }

    static CloneSpec clone(String machineId, String zone) {
        return new CloneSpec(machineId, SMALL, zone, Map.of());
    }

    @Override
    public void close() {
        try {
            sim.close();
        } catch (RuntimeException e) {
            // a test may have stopped it already to make the cluster unreachable
        }
        try {
            Files.deleteIfExists(secretFile);
        } catch (IOException e) {
            // a temp file
        }
    }
}
