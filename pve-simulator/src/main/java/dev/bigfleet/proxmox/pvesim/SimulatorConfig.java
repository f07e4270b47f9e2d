package dev.bigfleet.proxmox.pvesim;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What a simulator serves: where, which nodes, storages, templates and pools exist, which token is
 * accepted and what it may do, and how fast simulated time runs.
 *
 * <p>{@code latency} is the unit every simulated delay is a multiple of (see {@link Delays}):
 * a clone takes 3 units, a start 1, the guest agent comes up 5 units after the start task ends.
 * {@link Duration#ZERO} makes everything instant, which suits most tests.
 */
public final class SimulatorConfig {
    private final String host;
    private final int port;
    private final List<NodeSpec> nodes;
    private final List<StorageSpec> storages;
    private final List<TemplateSpec> templates;
    private final Map<String, Map<String, Integer>> pciMappings;
    private final List<VnetSpec> vnets;
    private final List<String> pools;
    private final ApiToken token;
    private final Path tlsDir;
    private final Duration latency;
    private final Duration statsLag;
    private final Duration authFailureDelay;
    private final int vmidLower;
    private final int vmidUpper;
    private final String tokenPool;
    private final TokenPrivileges privileges;
    private final Path guestImage;
    private final GuestMode guests;

    private SimulatorConfig(Builder b) {
        this.host = b.host;
        this.port = b.port;
        List<NodeSpec> ns = new ArrayList<>();
        int i = 11;
        for (NodeSpec n : b.nodes.isEmpty() ? List.of(NodeSpec.of("pve1")) : b.nodes) {
            ns.add(n.ip().isEmpty() ? n.withIp("10.0.0." + i) : n);
            i++;
        }
        this.nodes = List.copyOf(ns);
        this.storages = List.copyOf(
                b.storages.isEmpty()
                        ? List.of(StorageSpec.local(), StorageSpec.localLvm(), StorageSpec.cephRbd())
                        : b.storages);
        String first = nodes.get(0).name();
        List<TemplateSpec> ts = new ArrayList<>();
        for (TemplateSpec t : b.templates.isEmpty() ? List.of(TemplateSpec.of(9000, null)) : b.templates) {
            TemplateSpec placed = t.node() == null ? t.onNode(first) : t;
            ts.add(placed.storage() == null ? placed.withStorage(defaultTemplateStorage()) : placed);
        }
        this.templates = List.copyOf(ts);
        this.pools = List.copyOf(b.pools);
        Map<String, Map<String, Integer>> mappings = new java.util.TreeMap<>();
        b.pciMappings.forEach((id, perNode) -> mappings.put(id, Map.copyOf(perNode)));
        this.pciMappings = Map.copyOf(mappings);
        this.vnets = List.copyOf(b.vnets);
        this.token = Objects.requireNonNull(b.token, "token is required");
        this.tlsDir = b.tlsDir;
        this.latency = b.latency;
        this.statsLag = b.statsLag;
        this.authFailureDelay = b.authFailureDelay;
        this.vmidLower = b.vmidLower;
        this.vmidUpper = b.vmidUpper;
        this.tokenPool = b.tokenPool;
        this.privileges = privileges(b);
        this.guestImage = b.guestImage;
        this.guests = b.guests;
        validate();
    }

    /** The first shared storage for VM images, else the first node-local one. */
    private String defaultTemplateStorage() {
        return storages.stream()
                .filter(StorageSpec::holdsImages)
                .sorted((a, c) -> Boolean.compare(c.shared(), a.shared()))
                .map(StorageSpec::id)
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no storage holds VM images"));
    }

    private TokenPrivileges privileges(Builder b) {
        if (b.privileges != null) {
            return b.privileges;
        }
        if (tokenPool == null) {
            return TokenPrivileges.administrator();
        }
        TokenPrivileges p = TokenPrivileges.poolScoped(tokenPool);
        for (TemplateSpec t : templates) {
            p.grant("/vms/" + t.vmid(), "VM.Audit", "VM.Clone");
        }
        return p;
    }

    private void validate() {
        Set<String> names = new LinkedHashSet<>();
        for (NodeSpec n : nodes) {
            if (!names.add(n.name())) {
                throw new IllegalArgumentException("node " + n.name() + " given twice");
            }
        }
        Set<String> storageIds = new LinkedHashSet<>();
        for (StorageSpec s : storages) {
            if (!storageIds.add(s.id())) {
                throw new IllegalArgumentException("storage " + s.id() + " given twice");
            }
        }
        Set<String> vnetNames = new LinkedHashSet<>();
        for (VnetSpec v : vnets) {
            if (!vnetNames.add(v.name())) {
                throw new IllegalArgumentException("VNet " + v.name() + " given twice");
            }
        }
        Set<Integer> ids = new LinkedHashSet<>();
        for (TemplateSpec t : templates) {
            if (!names.contains(t.node())) {
                throw new IllegalArgumentException("template " + t.vmid() + " is on unknown node " + t.node());
            }
            if (!ids.add(t.vmid())) {
                throw new IllegalArgumentException("template " + t.vmid() + " given twice");
            }
            StorageSpec s = storages.stream()
                    .filter(x -> x.id().equals(t.storage()))
                    .findFirst()
                    .orElseThrow(() -> new IllegalArgumentException(
                            "template " + t.vmid() + " is on unknown storage " + t.storage()));
            if (!s.holdsImages() || !s.enabledOn(t.node())) {
                throw new IllegalArgumentException("template " + t.vmid() + ": storage " + t.storage()
                        + " does not hold VM images on node " + t.node());
            }
            if (t.iso() && storages.stream().noneMatch(x -> x.id().equals("local"))) {
                throw new IllegalArgumentException("template " + t.vmid() + ": an ISO needs the storage local");
            }
            if (t.execBlocked() && guests == GuestMode.VM) {
                throw new IllegalArgumentException("template " + t.vmid()
                        + ": a guest agent that blocks guest-exec is modelled with sandboxed guests only");
            }
        }
        for (String p : pools) {
            if (!p.matches("[A-Za-z0-9.\\-_]+")) {
                throw new IllegalArgumentException("invalid pool id \"" + p + "\"");
            }
        }
        if (tokenPool != null && !pools.contains(tokenPool)) {
            throw new IllegalArgumentException("pool-scoped token names pool " + tokenPool + ", which is not created");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " out of range");
        }
        if (vmidLower < 100 || vmidUpper <= vmidLower || vmidUpper > 1_000_000_000) {
            throw new IllegalArgumentException("vmid range must satisfy 100 <= lower < upper <= 1000000000");
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    public String host() {
        return host;
    }

    /** 0 means an ephemeral port chosen at start. */
    public int port() {
        return port;
    }

    public List<NodeSpec> nodes() {
        return nodes;
    }

    public List<StorageSpec> storages() {
        return storages;
    }

    public List<TemplateSpec> templates() {
        return templates;
    }

    /**
     * The PCI resource mappings the cluster starts with: id → node → how many devices it maps there
     * (the API may change them while the simulator runs).
     */
    public Map<String, Map<String, Integer>> pciMappings() {
        return pciMappings;
    }

    /** The cluster's SDN VNets (none unless given). */
    public List<VnetSpec> vnets() {
        return vnets;
    }

    public List<String> pools() {
        return pools;
    }

    public ApiToken token() {
        return token;
    }

    /** Where {@code ca.pem} is written; null means a fresh temporary directory. */
    public Path tlsDir() {
        return tlsDir;
    }

    public Duration latency() {
        return latency;
    }

    /**
     * How stale {@code status}, {@code name} and {@code template} in {@code /cluster/resources} may
     * be (real clusters: 10 s). Zero means always live.
     */
    public Duration statsLag() {
        return statsLag;
    }

    /** How long 401 answers are held back (real servers: about 3 s). */
    public Duration authFailureDelay() {
        return authFailureDelay;
    }

    /** {@code /cluster/nextid} answers from {@code [vmidLower, vmidUpper)}. */
    public int vmidLower() {
        return vmidLower;
    }

    public int vmidUpper() {
        return vmidUpper;
    }

    /**
     * The pool the token's rights are limited to, or null for a token that sees everything. See
     * {@link Builder#poolScopedToken}.
     */
    public String tokenPool() {
        return tokenPool;
    }

    /** What the token may do (everything, unless limited). */
    public TokenPrivileges privileges() {
        return privileges;
    }

    /**
     * What the guests boot: the sandboxes' root file system, or for {@link GuestMode#VM} the
     * directory of {@code guest.qcow2}, {@code vmlinuz} and {@code initrd.img}; null means the one
     * {@link GuestImage} finds.
     */
    public Path guestImage() {
        return guestImage;
    }

    /** What runs a started VM's guest (default: {@link GuestMode#SANDBOX}). */
    public GuestMode guests() {
        return guests;
    }

    /**
     * Defaults: 127.0.0.1 on an ephemeral port, node {@code pve1}, the storages {@code local}, {@code
     * local-lvm} and a shared {@code ceph-vm}, template 9000 on the shared one, zero latency, a
     * token that may do everything.
     */
    public static final class Builder {
        private String host = "127.0.0.1";
        private int port;
        private final List<NodeSpec> nodes = new ArrayList<>();
        private final List<StorageSpec> storages = new ArrayList<>();
        private final List<TemplateSpec> templates = new ArrayList<>();
        private final Map<String, Map<String, Integer>> pciMappings = new java.util.LinkedHashMap<>();
        private final List<VnetSpec> vnets = new ArrayList<>();
        private final List<String> pools = new ArrayList<>();
        private ApiToken token;
        private Path tlsDir;
        private Duration latency = Duration.ZERO;
        private Duration statsLag = Duration.ZERO;
        private Duration authFailureDelay = Duration.ZERO;
        private int vmidLower = 100;
        private int vmidUpper = 1_000_000;
        private String tokenPool;
        private TokenPrivileges privileges;
        private Path guestImage;
        private GuestMode guests = GuestMode.SANDBOX;

        private Builder() {}

        /** {@code HOST:PORT}; port 0 picks a free one. Only loopback hosts make sense for TLS. */
        public Builder address(String hostPort) {
            int colon = hostPort.lastIndexOf(':');
            if (colon < 0) {
                throw new IllegalArgumentException("address must be HOST:PORT, got \"" + hostPort + "\"");
            }
            String h = hostPort.substring(0, colon);
            this.host = h.isEmpty() ? "127.0.0.1" : h;
            try {
                this.port = Integer.parseInt(hostPort.substring(colon + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("address must be HOST:PORT, got \"" + hostPort + "\"");
            }
            return this;
        }

        public Builder port(int p) {
            this.port = p;
            return this;
        }

        /** Adds nodes with the default capacity. */
        public Builder nodes(String... names) {
            for (String n : names) {
                nodes.add(NodeSpec.of(n));
            }
            return this;
        }

        public Builder node(NodeSpec n) {
            nodes.add(Objects.requireNonNull(n));
            return this;
        }

        /** Adds a storage; the first one given replaces the default three. */
        public Builder storage(StorageSpec s) {
            storages.add(Objects.requireNonNull(s));
            return this;
        }

        /** Adds a default template (see {@link TemplateSpec#of}) on the first node. */
        public Builder templateVmid(int vmid) {
            templates.add(TemplateSpec.of(vmid, null));
            return this;
        }

        public Builder template(TemplateSpec t) {
            templates.add(Objects.requireNonNull(t));
            return this;
        }

        /**
         * Adds {@code devices} PCI devices on {@code node} to the cluster-wide PCI resource mapping
         * {@code id} ({@code /cluster/mapping/pci}), creating it. The cluster starts with it; the
         * API may then change or delete it.
         */
        public Builder pciMapping(String id, String node, int devices) {
            pciMappings
                    .computeIfAbsent(id, k -> new java.util.LinkedHashMap<>())
                    .merge(node, devices, Integer::sum);
            return this;
        }

        /**
         * Adds an SDN VNet ({@code /cluster/sdn/vnets}): a bridge of its name on every node, whose
         * users need {@code SDN.Use} on {@code /sdn/zones/<zone>/<name>}.
         */
        public Builder vnet(VnetSpec v) {
            vnets.add(Objects.requireNonNull(v));
            return this;
        }

        /** Adds an (empty) resource pool. */
        public Builder pool(String poolId) {
            pools.add(Objects.requireNonNull(poolId));
            return this;
        }

        /** {@code USER@REALM!TOKENID=SECRET}. */
        public Builder token(String tokenAndSecret) {
            this.token = ApiToken.parse(tokenAndSecret);
            return this;
        }

        public Builder token(ApiToken t) {
            this.token = Objects.requireNonNull(t);
            return this;
        }

        public Builder tlsDir(Path dir) {
            this.tlsDir = dir;
            return this;
        }

        public Builder latency(Duration unit) {
            this.latency = nonNegative(unit, "latency");
            return this;
        }

        public Builder statsLag(Duration lag) {
            this.statsLag = nonNegative(lag, "statsLag");
            return this;
        }

        public Builder authFailureDelay(Duration d) {
            this.authFailureDelay = nonNegative(d, "authFailureDelay");
            return this;
        }

        public Builder vmidRange(int lower, int upperExclusive) {
            this.vmidLower = lower;
            this.vmidUpper = upperExclusive;
            return this;
        }

        /**
         * Limits the token to the VMs of {@code pool} (which must also be added with {@link #pool}),
         * as with Proxmox's recommended least-privilege setup: other VMIDs, existing or not, answer
         * 403 {@code Permission check failed (/vms/<id>, <privilege>)} and are left out of
         * {@code /cluster/resources}; a clone must name the pool, and its VM becomes visible only when
         * the clone task ends. The token gets {@link TokenPrivileges#poolScoped} plus {@code VM.Audit}
         * and {@code VM.Clone} on each template, unless {@link #tokenPrivileges} says otherwise.
         */
        public Builder poolScopedToken(String pool) {
            this.tokenPool = Objects.requireNonNull(pool);
            return this;
        }

        /** Exactly what the token may do. */
        public Builder tokenPrivileges(TokenPrivileges p) {
            this.privileges = Objects.requireNonNull(p);
            return this;
        }

        /** What the guests boot, as {@code pve-simulator/guest-image/build.sh} (with {@code --vm}) prints it. */
        public Builder guestImage(Path image) {
            this.guestImage = Objects.requireNonNull(image);
            return this;
        }

        public Builder guests(GuestMode mode) {
            this.guests = Objects.requireNonNull(mode);
            return this;
        }

        public SimulatorConfig build() {
            return new SimulatorConfig(this);
        }

        private static Duration nonNegative(Duration d, String what) {
            if (d == null || d.isNegative()) {
                throw new IllegalArgumentException(what + " must be a non-negative duration");
            }
            return d;
        }
    }
}
