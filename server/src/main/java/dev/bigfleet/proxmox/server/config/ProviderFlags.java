package dev.bigfleet.proxmox.server.config;

import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Every command-line flag, as written by the operator. Values stay strings here; {@link
 * ConfigLoader} validates them in a fixed order so each mistake gets one clear line.
 */
@Command(
        name = "proxmox",
        mixinStandardHelpOptions = true,
        description = "BigFleet capacity provider for Proxmox VE: serves bigfleet.v1alpha1.CapacityProvider over gRPC.",
        sortOptions = false)
public final class ProviderFlags {
    @Option(names = "--addr", paramLabel = "HOST:PORT", description = "gRPC listen address (default :9000).")
    String addr = ":9000";

    @Option(names = "--provider", description = "Provider label: HostRef.provider and the first part of every slot id (default proxmox).")
    String provider = "proxmox";

    @Option(names = "--proxmox-backend", paramLabel = "NAME", description = "Backend: proxmox, fake, auto, or any plugin's name (default auto).")
    String proxmoxBackend = "auto";

    @Option(names = "--use-fake-backend", arity = "0..1", fallbackValue = "true", description = "Force the in-memory fake backend.")
    boolean useFakeBackend;

    @Option(names = "--proxmox-api-url", paramLabel = "URL", description = "Proxmox API, e.g. https://pve:8006/api2/json.")
    String proxmoxApiUrl = "";

    @Option(names = "--proxmox-token-id", paramLabel = "ID", description = "API token id USER@REALM!TOKENID.")
    String proxmoxTokenId = "";

    @Option(names = "--proxmox-token-secret", paramLabel = "SECRET", description = "API token secret (prefer --proxmox-token-file).")
    String proxmoxTokenSecret = "";

    @Option(names = "--proxmox-token-file", paramLabel = "FILE", description = "File holding the API token secret; wins over --proxmox-token-secret.")
    String proxmoxTokenFile = "";

    @Option(names = "--proxmox-ca-file", paramLabel = "FILE", description = "PEM bundle: the only trust roots for the Proxmox API.")
    String proxmoxCaFile = "";

    @Option(names = "--proxmox-tls-fingerprint", paramLabel = "SHA256", description = "SHA-256 pin of the Proxmox API leaf certificate.")
    String proxmoxTlsFingerprint = "";

    @Option(names = "--proxmox-pool", paramLabel = "POOL", description = "Resource pool for every clone.")
    String proxmoxPool = "";

    @Option(names = "--nodes", paramLabel = "N1,N2", description = "Proxmox node names, each one a zone.")
    String nodes = "";

    @Option(names = "--default-zone", paramLabel = "ZONE", description = "Without --nodes, default offerings use <zone>-a and <zone>-b (default pve).")
    String defaultZone = "pve";

    @Option(names = "--offerings", paramLabel = "FILE", description = "JSON array of offerings; default: generated.")
    String offerings = "";

    @Option(names = "--seed-count", paramLabel = "N", description = "Slots of the default offerings (default 32).")
    String seedCount = "32";

    @Option(names = "--instance-types", paramLabel = "FILE", description = "JSON instance-type catalog; default: built-in pve.*.")
    String instanceTypes = "";

    @Option(names = "--template-vmid", paramLabel = "VMID", description = "Template VMID of the built-in catalog (default 9000).")
    String templateVmid = "9000";

    @Option(names = "--prices", paramLabel = "T=USD,...", description = "Price overrides per instance type, USD per hour.")
    String prices = "";

    @Option(names = "--price-per-vcpu-hour", paramLabel = "USD", description = "Synthetic price per vCPU-hour (default 0.0030).")
    String pricePerVcpuHour = "0.0030";

    @Option(names = "--price-per-gib-hour", paramLabel = "USD", description = "Synthetic price per GiB-hour (default 0.0008).")
    String pricePerGibHour = "0.0008";

    @Option(names = "--bootstrap-path", paramLabel = "PATH", description = "Guest path of the bootstrap blob (default /run/bigfleet-bootstrap).")
    String bootstrapPath = "/run/bigfleet-bootstrap";

    @Option(names = "--bootstrap-exec", paramLabel = "ARGV", description = "Comma-separated bootstrap runner argv (default /bin/sh).")
    String bootstrapExec = "/bin/sh";

    @Option(names = "--max-concurrent-clones-per-node", paramLabel = "N", description = "Proxmox backend: full clones running at once against one node (default 2).")
    String maxConcurrentClonesPerNode = "2";

    @Option(names = "--memory-overcommit", paramLabel = "RATIO", description = "Proxmox backend: VM memory a node may hold, as a ratio of its memory (default 1.0).")
    String memoryOvercommit = "1.0";

    @Option(names = "--vmid-range", paramLabel = "FROM-TO", description = "Proxmox backend: VMIDs for clones; default: the cluster's next free id.")
    String vmidRange = "";

    @Option(names = "--clone-storage", paramLabel = "STORAGE", description = "Proxmox backend: target storage of full clones; default: the template's.")
    String cloneStorage = "";

    @Option(names = "--agent-timeout", paramLabel = "DURATION", description = "Proxmox backend: how long a started VM's guest agent may take to answer (default 4m).")
    String agentTimeout = "4m";

    @Option(names = "--reconcile-interval", paramLabel = "DURATION", description = "Background reconcile period; 0 = off (default 2m).")
    String reconcileInterval = "2m";

    @Option(names = "--state", paramLabel = "PATH", description = "SQLite state database; empty keeps state in memory (lost on restart).")
    String state = "";

    @Option(names = "--metrics-addr", paramLabel = "HOST:PORT", description = "HTTP address for /healthz, /readyz, /metrics, /admin/ and /api/v1/; empty disables (default :9090).")
    String metricsAddr = ":9090";

    @Option(names = "--admin-ui", arity = "0..1", fallbackValue = "true", description = "Serve the read-only admin page and its JSON API on --metrics-addr (default true).")
    boolean adminUi = true;

    @Option(names = "--log-format", paramLabel = "FORMAT", description = "Log lines on stderr: text or json (default text).")
    String logFormat = "text";

    @Option(names = "--reflection", arity = "0..1", fallbackValue = "true", description = "Register gRPC server reflection (default true).")
    boolean reflection = true;

    @Option(names = "--tls-cert", paramLabel = "FILE", description = "gRPC server certificate (PEM).")
    String tlsCert = "";

    @Option(names = "--tls-key", paramLabel = "FILE", description = "gRPC server private key (PEM).")
    String tlsKey = "";

    @Option(names = "--tls-ca", paramLabel = "FILE", description = "Client CA (PEM): require and verify client certificates.")
    String tlsCa = "";

    @Option(names = "--transition-timeout", paramLabel = "DURATION", description = "Sets all four transition timeouts.")
    String transitionTimeout = "";

    @Option(names = "--create-timeout", paramLabel = "DURATION", description = "Create timeout (default 8m).")
    String createTimeout = "";

    @Option(names = "--configure-timeout", paramLabel = "DURATION", description = "Configure timeout (default 8m).")
    String configureTimeout = "";

    @Option(names = "--drain-timeout", paramLabel = "DURATION", description = "Drain timeout (default 15m).")
    String drainTimeout = "";

    @Option(names = "--delete-timeout", paramLabel = "DURATION", description = "Delete timeout (default 8m).")
    String deleteTimeout = "";

    @Option(names = "--orphan-grace", paramLabel = "DURATION", description = "How long a VM without a live machine is kept before it is destroyed (default 10m).")
    String orphanGrace = "10m";

    @Option(names = "--reap-orphans", arity = "0..1", fallbackValue = "true", description = "Destroy orphan VMs after --orphan-grace; false only logs them (default true).")
    boolean reapOrphans = true;

    @Option(names = "--shutdown-grace", paramLabel = "DURATION", description = "How long in-flight RPCs may finish on SIGTERM (default 10s).")
    String shutdownGrace = "10s";

    @Option(names = "--plugin-dir", paramLabel = "DIR", description = "Directory of extra backend jars.")
    String pluginDir = "";

    @Option(names = "--fake-latency", paramLabel = "DURATION", description = "Fake backend: delay of each simulated step (default 200ms).")
    String fakeLatency = "200ms";

    @Option(names = "--fake-faults", arity = "0..1", fallbackValue = "true", description = "Fake backend: honour conformance fault selectors.")
    boolean fakeFaults;

    /** The settings handed to the backend, by flag name without dashes. Secrets are included: backends need them. */
    Map<String, String> backendOptions() {
        Map<String, String> o = new LinkedHashMap<>();
        o.put("proxmox-api-url", proxmoxApiUrl);
        o.put("proxmox-token-id", proxmoxTokenId);
        o.put("proxmox-token-secret", proxmoxTokenSecret);
        o.put("proxmox-token-file", proxmoxTokenFile);
        o.put("proxmox-ca-file", proxmoxCaFile);
        o.put("proxmox-tls-fingerprint", proxmoxTlsFingerprint);
        o.put("proxmox-pool", proxmoxPool);
        o.put("bootstrap-path", bootstrapPath);
        o.put("bootstrap-exec", bootstrapExec);
        o.put("max-concurrent-clones-per-node", maxConcurrentClonesPerNode);
        o.put("memory-overcommit", memoryOvercommit);
        o.put("vmid-range", vmidRange);
        o.put("clone-storage", cloneStorage);
        o.put("agent-timeout", agentTimeout);
        o.put("fake-latency", fakeLatency);
        o.put("fake-faults", Boolean.toString(fakeFaults));
        return o;
    }
}
