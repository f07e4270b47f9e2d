package dev.bigfleet.proxmox.testing;

import dev.bigfleet.proxmox.pvesim.NodeSpec;
import dev.bigfleet.proxmox.pvesim.PveSimulator;
import dev.bigfleet.proxmox.pvesim.SimulatorConfig;
import dev.bigfleet.proxmox.pvesim.StorageSpec;
import dev.bigfleet.proxmox.pvesim.TemplateSpec;
import dev.bigfleet.proxmox.pvesim.VmView;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A simulated Proxmox VE cluster (the pve-simulator over HTTPS on loopback) for tests of the real
 * backend and of a provider running on it. By default two nodes, {@code pve1} and {@code pve2},
 * with template 9000 on shared storage; {@link Builder#localStorage()} gives the installer's
 * node-local layout instead.
 *
 * <p>Its API token is {@value #TOKEN_ID}. A provider reads the token and the CA from files the way
 * Kubernetes mounts a Secret ({@link #providerFlags()}): {@code ca.pem} and {@code token} are
 * symlinks into {@code ..data}, which {@link #publishCa()} swaps to a new directory in one rename,
 * as the kubelet does when the Secret changes. A backend built in the test's JVM reads them from
 * the simulator's own files ({@link #backendOptions()}): its CA file is the one the simulator
 * rewrites when it replaces its certificates.
 */
public final class TestingProxmoxCluster implements AutoCloseable {
    public static final String TOKEN_ID = "bigfleet@pve!provider";
    /** Distinctive, so a leak is easy to find. */
    public static final String SECRET = "5ec7e7aa-70ce-4e11-b1ab-5ec7e75ec7e7";
    /** The template of the default layout. */
    public static final int TEMPLATE = 9000;
    /** The nodes of the node-local layout, each with its own template (9001, 9002, 9003). */
    public static final List<String> THREE_NODES = List.of("pve1", "pve2", "pve3");
    /** The tag of the node-local layout's templates. */
    public static final String TEMPLATE_TAG = "bigfleet-template";
    /** Node memory so large that admission never refuses a test's Creates. */
    public static final long ROOMY_MEMORY = 1L << 50;

    private final PveSimulator simulator;
    private final Path dir;
    private final Path volume;
    private final Path tokenFile;
    private final Optional<String> pool;
    private int generation;

    private TestingProxmoxCluster(PveSimulator simulator, Path dir, Optional<String> pool) throws IOException {
        this.simulator = simulator;
        this.dir = dir;
        this.volume = Files.createDirectories(dir.resolve("secret"));
        this.tokenFile = dir.resolve("token");
        this.pool = pool;
        Files.writeString(tokenFile, SECRET + "\n", StandardCharsets.UTF_8);
        publishCa();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The simulator itself: its VMs and tasks, and the faults and out-of-band changes a test sets. */
    public PveSimulator simulator() {
        return simulator;
    }

    /** The names of the cluster's nodes. */
    public List<String> nodes() {
        return simulator.config().nodes().stream().map(NodeSpec::name).toList();
    }

    /**
     * The flags that run a provider on this cluster through its real backend: the API URL, the
     * token id, and the token and CA from the Secret-like volume.
     */
    public List<String> providerFlags() {
        return List.of(
                "--proxmox-backend",
                "proxmox",
                "--proxmox-api-url",
                simulator.apiUrl().toString(),
                "--proxmox-token-id",
                TOKEN_ID,
                "--proxmox-token-file",
                volume.resolve("token").toString(),
                "--proxmox-ca-file",
                volume.resolve("ca.pem").toString(),
                "--nodes",
                String.join(",", nodes()));
    }

    /**
     * The real backend's options for this cluster as a server hands them over (api-url, token-id,
     * token-file, ca-file, and pool when the cluster has one).
     */
    public Map<String, String> backendOptions() {
        Map<String, String> o = new LinkedHashMap<>();
        o.put("api-url", simulator.apiUrl().toString());
        o.put("token-id", TOKEN_ID);
        o.put("token-file", tokenFile.toString());
        o.put("ca-file", simulator.caCertificate().toString());
        pool.ifPresent(p -> o.put("pool", p));
        return o;
    }

    /** Publishes the simulator's current CA (and the token) as a new generation of the Secret volume. */
    public void publishCa() throws IOException {
        Path next = Files.createDirectory(volume.resolve("..2026_01_01_00_00_0" + generation++ + ".1"));
        Files.copy(simulator.caCertificate(), next.resolve("ca.pem"));
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
        return simulator.vms().stream().filter(v -> !v.template()).toList();
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
        try {
            simulator.close();
        } catch (RuntimeException e) {
            // a test may have stopped it already to make the cluster unreachable
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // a temporary directory: left for the system to clean
        }
    }

    /** What the cluster is made of; {@link #start()} starts it. */
    public static final class Builder {
        private final List<NodeSpec> nodes = new ArrayList<>();
        private final List<StorageSpec> storages = new ArrayList<>();
        private final List<TemplateSpec> templates = new ArrayList<>();
        private final List<Consumer<SimulatorConfig.Builder>> customizations = new ArrayList<>();
        private boolean roomy;
        private boolean localStorage;
        private boolean execBlocked;
        private Optional<String> pool = Optional.empty();
        private Optional<Duration> latency = Optional.empty();

        private Builder() {}

        /** Nodes of these names (default {@code pve1}, {@code pve2}; three for the node-local layout). */
        public Builder nodes(String... names) {
            Stream.of(names).map(NodeSpec::of).forEach(nodes::add);
            return this;
        }

        /** Nodes of their own shapes (capacity, bridges). */
        public Builder nodes(List<NodeSpec> specs) {
            nodes.addAll(specs);
            return this;
        }

        /** A node of its own shape (capacity, bridges). */
        public Builder node(NodeSpec node) {
            nodes.add(node);
            return this;
        }

        /** Nodes so large that memory admission never refuses a Create. */
        public Builder roomy() {
            this.roomy = true;
            return this;
        }

        /**
         * The installer's layout on three nodes ({@link #THREE_NODES} unless nodes are named):
         * {@code local} and {@code local-lvm} on each, no shared storage, and a template per node on
         * {@code local-lvm} (9001 on the first, 9002, 9003), tagged {@value #TEMPLATE_TAG}.
         */
        public Builder localStorage() {
            this.localStorage = true;
            return this;
        }

        /** A storage of the cluster; given any, they replace the layout's storages. */
        public Builder storage(StorageSpec storage) {
            storages.add(storage);
            return this;
        }

        /** A template of the cluster; given any, they replace the layout's templates. */
        public Builder template(TemplateSpec template) {
            templates.add(template);
            return this;
        }

        /**
         * Templates (the layout's or the given ones) whose guests' qemu-guest-agent blocks {@code
         * guest-exec} and {@code guest-exec-status}, and so do their clones': {@code agent/exec}
         * answers 500 {@code Agent error: Command guest-exec has been disabled}, while ping and
         * file-write still work ({@link TemplateSpec#withExecBlocked}). Such a guest can be
         * bootstrapped through a cloud-init seed ISO instead.
         */
        public Builder execBlocked() {
            this.execBlocked = true;
            return this;
        }

        /** A resource pool the cluster has (and the backend options name). */
        public Builder pool(String pool) {
            this.pool = Optional.of(pool);
            return this;
        }

        /** The simulator's unit of delay (a clone takes 3x, a guest agent boots in 5x). */
        public Builder latency(Duration latency) {
            this.latency = Optional.of(latency);
            return this;
        }

        /** Anything else of the simulator's configuration; applied last, so it may override the above. */
        public Builder customize(Consumer<SimulatorConfig.Builder> customization) {
            customizations.add(customization);
            return this;
        }

        public TestingProxmoxCluster start() {
            try {
                Path dir = Files.createTempDirectory("testing-proxmox");
                SimulatorConfig.Builder b = SimulatorConfig.builder()
                        .token(TOKEN_ID + "=" + SECRET)
                        .tlsDir(Files.createDirectories(dir.resolve("simulator")));
                List<NodeSpec> chosen = new ArrayList<>(nodes);
                if (chosen.isEmpty()) {
                    (localStorage ? THREE_NODES : List.of("pve1", "pve2"))
                            .stream().map(NodeSpec::of).forEach(chosen::add);
                }
                for (NodeSpec n : chosen) {
                    b.node(roomy ? n.withCapacity(1024, ROOMY_MEMORY) : n);
                }
                if (!storages.isEmpty()) {
                    storages.forEach(b::storage);
                } else if (localStorage) {
                    b.storage(StorageSpec.local()).storage(StorageSpec.localLvm());
                }
                List<TemplateSpec> chosenTemplates = new ArrayList<>(templates);
                if (chosenTemplates.isEmpty() && localStorage) {
                    for (int i = 0; i < chosen.size(); i++) {
                        chosenTemplates.add(
                                TemplateSpec.of(9001 + i, chosen.get(i).name())
                                        .withStorage("local-lvm")
                                        .withTags("k8s;" + TEMPLATE_TAG));
                    }
                } else if (chosenTemplates.isEmpty()) {
                    chosenTemplates.add(TemplateSpec.of(TEMPLATE, null));
                }
                for (TemplateSpec t : chosenTemplates) {
                    b.template(execBlocked ? t.withExecBlocked() : t);
                }
                pool.ifPresent(b::pool);
                latency.ifPresent(b::latency);
                customizations.forEach(c -> c.accept(b));
                return new TestingProxmoxCluster(PveSimulator.start(b.build()), dir, pool);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
