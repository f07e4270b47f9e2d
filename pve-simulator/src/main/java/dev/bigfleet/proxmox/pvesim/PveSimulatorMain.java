package dev.bigfleet.proxmox.pvesim;

import dev.bigfleet.proxmox.api.GoDuration;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code pve-simulator}: serves the simulated Proxmox VE API until killed. Prints the API URL, the
 * CA file and the server certificate's SHA-256 fingerprint, one {@code key: value} per line.
 */
@Command(
        name = "pve-simulator",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "Serves a stateful simulation of the Proxmox VE API subset over HTTPS.")
public final class PveSimulatorMain implements Callable<Integer> {

    @Option(
            names = "--addr",
            paramLabel = "HOST:PORT",
            description = "listen address (default: ${DEFAULT-VALUE}); port 0 picks a free one")
    String addr = "127.0.0.1:8006";

    @Option(
            names = "--nodes",
            paramLabel = "NAMES",
            split = ",",
            description = "node names, comma separated (default: pve1)")
    List<String> nodes = List.of("pve1");

    @Option(
            names = "--template-vmid",
            paramLabel = "VMID",
            split = ",",
            description = "template VMIDs on the first node (default: 9000); with --templates-per-node, the"
                    + " first one's VMID (the next nodes get the following VMIDs)")
    List<Integer> templateVmids = List.of(9000);

    @Option(
            names = "--templates-per-node",
            description = "one template on every node (on --template-storage) instead of templates on the first node")
    boolean templatesPerNode;

    @Option(
            names = "--template-tags",
            paramLabel = "TAGS",
            description = "the templates' tags, ; separated (default: ${DEFAULT-VALUE})")
    String templateTags = "k8s;template";

    @Option(
            names = "--template-exec-blocked",
            description = "the templates' guests (and so their clones') run qemu-guest-agent with guest-exec and"
                    + " guest-exec-status blocked (block-rpcs in /etc/qemu/qemu-ga.conf): agent/exec answers"
                    + " 'Agent error: Command guest-exec has been disabled'; sandboxed guests only")
    boolean templateExecBlocked;

    @Option(
            names = "--template-storage",
            paramLabel = "STORAGE",
            description = "storage of the templates' disks (default: the shared storage, else local-lvm)")
    String templateStorage;

    @Option(
            names = "--template-disk-gib",
            paramLabel = "GIB",
            description = "size of each template's boot disk (default: ${DEFAULT-VALUE})")
    int templateDiskGib = 32;

    @Option(
            names = "--shared-storage",
            paramLabel = "TYPE",
            description =
                    "the shared storage for VM disks: rbd (ceph-vm), nfs (nfs-vm) or none (default: ${DEFAULT-VALUE})")
    String sharedStorage = "rbd";

    @Option(
            names = "--shared-storage-gib",
            paramLabel = "GIB",
            description = "size of the shared storage (default: ${DEFAULT-VALUE})")
    long sharedStorageGib = 4096;

    @Option(
            names = "--local-lvm-gib",
            paramLabel = "GIB",
            description = "size of each node's LVM-thin local-lvm (default: ${DEFAULT-VALUE})")
    long localLvmGib = 512;

    @Option(
            names = "--node-bridges",
            paramLabel = "BRIDGES",
            split = ",",
            description = "Linux bridges of every node (default: vmbr0)")
    List<String> nodeBridges = List.of("vmbr0");

    @Option(
            names = "--token",
            required = true,
            paramLabel = "USER@REALM!TOKENID=SECRET",
            description = "the API token to accept")
    String token;

    @Option(
            names = "--tls-dir",
            required = true,
            paramLabel = "DIR",
            description = "where ca.pem and pve-ssl.pem are written")
    Path tlsDir;

    @Option(
            names = "--latency",
            paramLabel = "DURATION",
            description = "unit of every simulated delay, Go syntax (default: ${DEFAULT-VALUE}; 0s = instant)")
    String latency = "1s";

    @Option(
            names = "--pool",
            paramLabel = "POOLID",
            split = ",",
            description = "resource pools to create (default: bigfleet)")
    List<String> pools = List.of("bigfleet");

    @Option(
            names = "--pci-mapping",
            paramLabel = "ID=NODE:COUNT[,NODE:COUNT...]",
            description = "a cluster PCI resource mapping with COUNT devices on each NODE, e.g."
                    + " gpu-a100=pve1:2,pve2:1 (repeatable; default: none)")
    List<String> pciMappings = List.of();

    @Option(
            names = "--vnet",
            paramLabel = "NAME=ZONE[:TAG]",
            description = "an SDN VNet (a bridge on every node, listed in /cluster/sdn/vnets) in ZONE, optionally"
                    + " with its VLAN tag or VXLAN VNI, e.g. vnet1=zone1:100 (repeatable; default: none)")
    List<String> vnets = List.of();

    @Option(names = "--node-cpus", paramLabel = "N", description = "CPU threads per node (default: ${DEFAULT-VALUE})")
    int nodeCpus = NodeSpec.DEFAULT_CPUS;

    @Option(
            names = "--node-memory-gib",
            paramLabel = "GIB",
            description = "memory per node in GiB (default: ${DEFAULT-VALUE})")
    long nodeMemoryGib = NodeSpec.DEFAULT_MEM_BYTES >> 30;

    @Option(
            names = "--stats-lag",
            paramLabel = "DURATION",
            description = "staleness of /cluster/resources status and name (default: ${DEFAULT-VALUE})")
    String statsLag = "0s";

    @Option(
            names = "--guests",
            paramLabel = "KIND",
            description = "what runs a started VM's guest: sandbox (qemu-guest-agent in bubblewrap, the default)"
                    + " or vm (a QEMU virtual machine under software emulation, booting for real)")
    String guests = "sandbox";

    @Option(
            names = "--guest-image",
            paramLabel = "DIR",
            description = "what the guests boot, as pve-simulator/guest-image/build.sh [--vm] prints it (default:"
                    + " built by that script, or cached)")
    Path guestImage;

    @Override
    public Integer call() throws Exception {
        SimulatorConfig config = config();
        PveSimulator sim = PveSimulator.start(config);
        Runtime.getRuntime().addShutdownHook(new Thread(sim::close, "pve-simulator-shutdown"));
        PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        out.println("api-url: " + sim.apiUrl());
        out.println("ca-file: " + sim.caCertificate().toAbsolutePath());
        out.println("fingerprint: " + sim.fingerprint());
        out.println("token-id: " + config.token().tokenId());
        sim.join();
        return 0;
    }

    /** {@code ID=NODE:COUNT[,NODE:COUNT...]} onto the builder; a bad one names the flag. */
    private static void pciMapping(SimulatorConfig.Builder b, String value) {
        int eq = value.indexOf('=');
        String id = eq < 0 ? "" : value.substring(0, eq).trim();
        if (!id.matches("[a-zA-Z][a-zA-Z0-9_-]*") || eq == value.length() - 1) {
            throw new IllegalArgumentException(
                    "--pci-mapping: " + value + " is not ID=NODE:COUNT[,NODE:COUNT...] (e.g. gpu-a100=pve1:2)");
        }
        for (String part : value.substring(eq + 1).split(",", -1)) {
            String[] nc = part.trim().split(":", -1);
            if (nc.length != 2 || nc[0].isEmpty() || !nc[1].matches("[1-9]\\d{0,2}")) {
                throw new IllegalArgumentException("--pci-mapping: " + part.trim() + " in " + value
                        + " is not NODE:COUNT with a COUNT from 1 to 999 (e.g. pve1:2)");
            }
            b.pciMapping(id, nc[0], Integer.parseInt(nc[1]));
        }
    }

    /** {@code NAME=ZONE[:TAG]} onto the builder; a bad one names the flag. */
    private static void vnet(SimulatorConfig.Builder b, String value) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("([^=]+)=([^:]+)(?::(\\d{1,8}))?")
                .matcher(value.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("--vnet: " + value + " is not NAME=ZONE[:TAG] (e.g. vnet1=zone1:100)");
        }
        try {
            VnetSpec v = VnetSpec.of(m.group(1).trim(), m.group(2).trim());
            b.vnet(m.group(3) == null ? v : v.withTag(Integer.parseInt(m.group(3))));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--vnet: " + e.getMessage(), e);
        }
    }

    SimulatorConfig config() {
        SimulatorConfig.Builder b = SimulatorConfig.builder()
                .address(addr)
                .token(token)
                .tlsDir(tlsDir)
                .latency(duration("--latency", latency))
                .statsLag(duration("--stats-lag", statsLag))
                .guests(guestMode());
        if (guestImage != null) {
            b.guestImage(guestImage);
        }
        for (String n : nodes) {
            b.node(NodeSpec.of(n.trim())
                    .withCapacity(nodeCpus, nodeMemoryGib << 30)
                    .withBridges(nodeBridges.toArray(new String[0])));
        }
        b.storage(StorageSpec.local()).storage(StorageSpec.localLvm().withCapacityGib(localLvmGib));
        switch (sharedStorage) {
            case "rbd" -> b.storage(StorageSpec.cephRbd().withCapacityGib(sharedStorageGib));
            case "nfs" -> b.storage(StorageSpec.nfs().withCapacityGib(sharedStorageGib));
            case "none" -> {}
            default ->
                throw new IllegalArgumentException(
                        "--shared-storage: \"" + sharedStorage + "\" is not rbd, nfs or none");
        }
        if (templatesPerNode) {
            int vmid = templateVmids.get(0);
            for (String n : nodes) {
                b.template(template(vmid++, n.trim()));
            }
        } else {
            for (int vmid : templateVmids) {
                b.template(template(vmid, null));
            }
        }
        for (String m : pciMappings) {
            pciMapping(b, m);
        }
        for (String v : vnets) {
            vnet(b, v);
        }
        for (String p : pools) {
            if (!p.isBlank()) {
                b.pool(p.trim());
            }
        }
        return b.build();
    }

    private GuestMode guestMode() {
        return switch (guests) {
            case "sandbox" -> GuestMode.SANDBOX;
            case "vm" -> GuestMode.VM;
            default -> throw new IllegalArgumentException("--guests: \"" + guests + "\" is not sandbox or vm");
        };
    }

    private TemplateSpec template(int vmid, String node) {
        TemplateSpec t = TemplateSpec.of(vmid, node)
                .withTags(templateTags)
                .withStorage(templateStorage)
                .withDiskGib(templateDiskGib);
        return templateExecBlocked ? t.withExecBlocked() : t;
    }

    private static Duration duration(String flag, String text) {
        try {
            Duration d = GoDuration.parse(text);
            if (d.isNegative()) {
                throw new IllegalArgumentException("must not be negative");
            }
            return d;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(flag + ": " + e.getMessage());
        }
    }

    public static void main(String[] args) {
        if (System.getProperty("logback.configurationFile") == null) {
            System.setProperty("logback.configurationFile", "pve-simulator-logback.xml");
        }
        System.exit(run(args));
    }

    /** Parses and runs; a bad flag prints one line to stderr and returns 2, a bad value 1. */
    static int run(String... args) {
        CommandLine cl = new CommandLine(new PveSimulatorMain());
        cl.setParameterExceptionHandler((e, a) -> {
            // An unknown flag explains a missing required one better than the other way round.
            List<String> unmatched = e.getCommandLine().getUnmatchedArguments();
            String msg = unmatched.isEmpty() ? e.getMessage() : "unknown option or argument: " + unmatched.get(0);
            System.err.println("pve-simulator: " + msg);
            return 2;
        });
        cl.setExecutionExceptionHandler((e, c, parsed) -> {
            System.err.println("pve-simulator: " + e.getMessage());
            return 1;
        });
        return cl.execute(args);
    }
}
