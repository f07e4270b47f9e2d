package dev.bigfleet.proxmox.server.cli;

import dev.bigfleet.proxmox.server.config.ListenAddress;
import dev.bigfleet.proxmox.server.config.NodeList;
import dev.bigfleet.proxmox.server.config.UnnamedClients;
import dev.bigfleet.proxmox.server.logging.LogFormat;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The server's command-line flags, typed. Backends' own settings are not here: each backend
 * declares its options (and their flag aliases) and {@link BackendFlags} adds them to the command.
 */
@Command(
        name = "proxmox",
        mixinStandardHelpOptions = true,
        description = "BigFleet capacity provider for Proxmox VE: serves bigfleet.v1alpha1.CapacityProvider over gRPC.",
        sortOptions = false)
public final class ProviderFlags {
    @Option(
            names = "--addr",
            paramLabel = "HOST:PORT",
            converter = FlagTypes.ListenAddressConverter.class,
            description = "gRPC listen address (default :9000).")
    ListenAddress addr = new ListenAddress("", 9000);

    @Option(
            names = "--provider",
            paramLabel = "LABEL",
            description = "Provider label: HostRef.provider and the first part of every slot id (default proxmox).")
    String provider = "proxmox";

    @Option(
            names = "--proxmox-backend",
            paramLabel = "NAME",
            description = "Backend: proxmox, fake, auto, or any plugin's name (default auto).")
    String proxmoxBackend = "auto";

    @Option(
            names = "--backend-opt",
            paramLabel = "KEY=VALUE",
            description = "An option of the selected backend (repeatable); see the backends below.")
    List<String> backendOpts = new ArrayList<>();

    @Option(
            names = "--backend-config",
            paramLabel = "FILE",
            description = "JSON object of options of the selected backend; flags win over it.")
    Path backendConfig;

    @Option(
            names = "--nodes",
            paramLabel = "N1,N2",
            converter = FlagTypes.NodesConverter.class,
            description = "Proxmox node names, each one a zone.")
    NodeList nodes = NodeList.NONE;

    @Option(
            names = "--default-zone",
            paramLabel = "ZONE",
            description = "Without --nodes, default offerings use <zone>-a and <zone>-b (default pve).")
    String defaultZone = "pve";

    @Option(names = "--offerings", paramLabel = "FILE", description = "JSON array of offerings; default: generated.")
    Path offerings;

    @Option(
            names = "--seed-count",
            paramLabel = "N",
            converter = FlagTypes.PositiveLongConverter.class,
            description = "Slots of the default offerings (default 32).")
    long seedCount = 32;

    @Option(
            names = "--instance-types",
            paramLabel = "FILE",
            description = "JSON instance-type catalog; default: built-in pve.*.")
    Path instanceTypes;

    @Option(
            names = "--template-vmid",
            paramLabel = "VMID",
            converter = FlagTypes.PositiveLongConverter.class,
            description = "Template VMID of the built-in catalog (default 9000).")
    long templateVmid = 9000;

    @Option(
            names = "--prices",
            paramLabel = "T=USD,...",
            description = "Price overrides per instance type, USD per hour.")
    String prices = "";

    @Option(
            names = "--price-per-vcpu-hour",
            paramLabel = "USD",
            converter = FlagTypes.PriceConverter.class,
            description = "Synthetic price per vCPU-hour (default 0.0030).")
    double pricePerVcpuHour = 0.0030;

    @Option(
            names = "--price-per-gib-hour",
            paramLabel = "USD",
            converter = FlagTypes.PriceConverter.class,
            description = "Synthetic price per GiB-hour (default 0.0008).")
    double pricePerGibHour = 0.0008;

    @Option(
            names = "--reconcile-interval",
            paramLabel = "DURATION",
            converter = FlagTypes.GoDurationConverter.class,
            description = "Background reconcile period; 0 = off (default 2m).")
    Duration reconcileInterval = Duration.ofMinutes(2);

    @Option(
            names = "--state",
            paramLabel = "PATH|URL",
            description = "SQLite state database, or postgresql://HOST:PORT/DB?user=USER for replicas sharing"
                    + " PostgreSQL; empty keeps state in memory (lost on restart).")
    String state = "";

    @Option(
            names = "--state-password-file",
            paramLabel = "FILE",
            description = "File holding the PostgreSQL password of --state postgresql://.")
    Path statePasswordFile;

    @Option(
            names = "--leader-lease",
            paramLabel = "DURATION",
            converter = FlagTypes.GoDurationConverter.class,
            description = "With PostgreSQL state: how long the leader's lease runs unrenewed (default 6s).")
    Duration leaderLease = Duration.ofSeconds(6);

    @Option(
            names = "--leader-renew",
            paramLabel = "DURATION",
            converter = FlagTypes.GoDurationConverter.class,
            description = "With PostgreSQL state: how often the leader renews, and a standby tries to take, the"
                    + " lease (default 2s).")
    Duration leaderRenew = Duration.ofSeconds(2);

    @Option(
            names = "--metrics-addr",
            paramLabel = "HOST:PORT",
            description =
                    "HTTP address for /healthz, /readyz, /metrics, /admin/ and /api/v1/; empty disables (default :9090).")
    String metricsAddr = ":9090";

    @Option(
            names = "--admin-ui",
            arity = "0..1",
            fallbackValue = "true",
            description = "Serve the read-only admin page and its JSON API on --metrics-addr (default true).")
    boolean adminUi = true;

    @Option(
            names = "--metrics-tls-cert",
            paramLabel = "FILE",
            description = "HTTPS on --metrics-addr: server certificate (PEM).")
    Path metricsTlsCert;

    @Option(
            names = "--metrics-tls-key",
            paramLabel = "FILE",
            description = "HTTPS on --metrics-addr: server private key (PEM, PKCS#8).")
    Path metricsTlsKey;

    @Option(
            names = "--metrics-tls-ca",
            paramLabel = "FILE",
            description = "Client CA (PEM): every path on --metrics-addr but /healthz and /readyz needs a client"
                    + " certificate it signed.")
    Path metricsTlsCa;

    @Option(
            names = "--log-format",
            paramLabel = "FORMAT",
            converter = FlagTypes.LogFormatConverter.class,
            description = "Log lines on stderr: text or json (default text).")
    LogFormat logFormat = LogFormat.TEXT;

    @Option(
            names = "--reflection",
            arity = "0..1",
            fallbackValue = "true",
            description = "Register gRPC server reflection (default true).")
    boolean reflection = true;

    @Option(names = "--tls-cert", paramLabel = "FILE", description = "gRPC server certificate (PEM).")
    Path tlsCert;

    @Option(names = "--tls-key", paramLabel = "FILE", description = "gRPC server private key (PEM).")
    Path tlsKey;

    @Option(
            names = "--tls-ca",
            paramLabel = "FILE",
            description = "Client CA (PEM): require and verify client certificates; a certificate with a"
                    + " bigfleet://shard/ID URI may only mutate with fence tokens of shard ID.")
    Path tlsCa;

    @Option(
            names = "--tls-unnamed-clients",
            paramLabel = "MODE",
            converter = FlagTypes.UnnamedClientsConverter.class,
            description = "With --tls-ca: what a client certificate naming no shard may do: read, or mutate too, in"
                    + " any shard's name, for tools such as bigfleetctl (default read).")
    UnnamedClients tlsUnnamedClients = UnnamedClients.READ;

    @Option(
            names = "--transition-timeout",
            paramLabel = "DURATION",
            converter = FlagTypes.GoDurationConverter.class,
            description = "Sets all four transition timeouts.")
    Duration transitionTimeout;

    @Option(
            names = "--create-timeout",
            paramLabel = "DURATION",
            converter = FlagTypes.GoDurationConverter.class,
            description = "Create timeout (default 8m).")
    Duration createTimeout;

    @Option(
            names = "--configure-timeout",
            paramLabel = "DURATION",
            converter = FlagTypes.GoDurationConverter.class,
            description = "Configure timeout (default 8m).")
    Duration configureTimeout;

    @Option(
            names = "--drain-timeout",
            paramLabel = "DURATION",
            converter = FlagTypes.GoDurationConverter.class,
            description = "Drain timeout (default 15m).")
    Duration drainTimeout;

    @Option(
            names = "--delete-timeout",
            paramLabel = "DURATION",
            converter = FlagTypes.GoDurationConverter.class,
            description = "Delete timeout (default 8m).")
    Duration deleteTimeout;

    @Option(
            names = "--orphan-grace",
            paramLabel = "DURATION",
            converter = FlagTypes.GoDurationConverter.class,
            description = "How long a VM without a live machine is kept before it is destroyed (default 10m).")
    Duration orphanGrace = Duration.ofMinutes(10);

    @Option(
            names = "--failed-retention",
            paramLabel = "DURATION",
            converter = FlagTypes.GoDurationConverter.class,
            description =
                    "How long a FAILED machine stays as it is before it is cleaned up and its slot offered again under a new machine id; 0 keeps it (default 30m).")
    Duration failedRetention = Duration.ofMinutes(30);

    @Option(
            names = "--fence-min-epoch",
            paramLabel = "EPOCH",
            description = "Refuse every lifecycle call whose shard_epoch is below EPOCH, whatever the fence marks say:"
                    + " for a state rebuilt from the cluster or restored from an older copy, whose marks are lost"
                    + " (default: no floor).")
    Long fenceMinEpoch;

    @Option(
            names = "--reap-orphans",
            arity = "0..1",
            fallbackValue = "true",
            description = "Destroy orphan VMs after --orphan-grace; false only logs them (default true).")
    boolean reapOrphans = true;

    @Option(
            names = "--shutdown-grace",
            paramLabel = "DURATION",
            converter = FlagTypes.GoDurationConverter.class,
            description = "How long in-flight RPCs may finish on SIGTERM (default 10s).")
    Duration shutdownGrace = Duration.ofSeconds(10);

    @Option(
            names = PLUGIN_DIR,
            paramLabel = "DIR",
            description = "Directory of backend plugins: jars, or directories of jars.")
    Path pluginDir;

    static final String PLUGIN_DIR = "--plugin-dir";
}
