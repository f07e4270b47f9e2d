package dev.bigfleet.proxmox.server.cli;

import dev.bigfleet.proxmox.api.GoDuration;
import dev.bigfleet.proxmox.api.InstanceTypeCatalog;
import dev.bigfleet.proxmox.api.Offering;
import dev.bigfleet.proxmox.api.Offerings;
import dev.bigfleet.proxmox.api.PriceList;
import dev.bigfleet.proxmox.api.TransitionKind;
import dev.bigfleet.proxmox.engine.FenceFloor;
import dev.bigfleet.proxmox.engine.InventoryPlan;
import dev.bigfleet.proxmox.engine.OrphanPolicy;
import dev.bigfleet.proxmox.engine.RecoveryPolicy;
import dev.bigfleet.proxmox.engine.TransitionTimeouts;
import dev.bigfleet.proxmox.server.config.BackendConfig;
import dev.bigfleet.proxmox.server.config.CatalogFile;
import dev.bigfleet.proxmox.server.config.GrpcConfig;
import dev.bigfleet.proxmox.server.config.HttpConfig;
import dev.bigfleet.proxmox.server.config.InventoryConfig;
import dev.bigfleet.proxmox.server.config.ListenAddress;
import dev.bigfleet.proxmox.server.config.ObservabilitySettings;
import dev.bigfleet.proxmox.server.config.OfferingsFile;
import dev.bigfleet.proxmox.server.config.RuntimeConfig;
import dev.bigfleet.proxmox.server.config.StateConfig;
import dev.bigfleet.proxmox.server.config.TlsFiles;
import dev.bigfleet.proxmox.server.config.UnnamedClients;
import dev.bigfleet.proxmox.server.plugin.LoadedBackend;
import dev.bigfleet.proxmox.server.startup.ConfigException;
import dev.bigfleet.proxmox.spi.BackendOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Validates a parsed command line into {@link ProviderConfigs}, in a fixed order, stopping at the
 * first mistake with one line that names the flag (or file entry) and what is wrong.
 */
public final class ConfigLoader {
    private static final Logger log = LoggerFactory.getLogger(ConfigLoader.class);

    private ConfigLoader() {}

    /** The log settings alone, read first so every later line is in the chosen format. */
    public static ObservabilitySettings observability(ParsedCommandLine command) {
        return new ObservabilitySettings(command.flags().logFormat, command.flags().adminUi);
    }

    public static ProviderConfigs load(ParsedCommandLine command) throws ConfigException {
        ProviderFlags f = command.flags();
        String provider = f.provider.trim();
        if (provider.isEmpty()
                || provider.chars().anyMatch(c -> Character.isWhitespace(c) || Character.isISOControl(c))) {
            throw new ConfigException("--provider: \"" + f.provider + "\" must be non-empty, without spaces");
        }
        // the backend first: the catalog's entries may carry keys it declares
        BackendConfig backend = backend(command);
        InstanceTypeCatalog catalog = f.instanceTypes == null
                ? InstanceTypeCatalog.builtIn(f.templateVmid)
                : CatalogFile.load(
                        f.instanceTypes,
                        f.templateVmid,
                        backend.backend().name(),
                        backend.backend().instanceTypeSettings(),
                        backend.backend().instanceTypeSettingSchemas());
        PriceList prices = prices(f);
        TransitionTimeouts timeouts = timeouts(f);
        requireNotNegative("--orphan-grace", f.orphanGrace);
        requireNotNegative("--failed-retention", f.failedRetention);
        requireNotNegative("--shutdown-grace", f.shutdownGrace);
        RuntimeConfig runtime = new RuntimeConfig(
                f.reconcileInterval.isNegative() ? Duration.ZERO : f.reconcileInterval, f.shutdownGrace);

        List<Offering> offerings = offerings(f, catalog, backend);
        try {
            Offerings.validate(offerings, catalog);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(
                    (f.offerings == null ? "" : "--offerings " + f.offerings + ": ") + e.getMessage());
        }
        StateConfig state = StateFlags.load(f);
        GrpcConfig grpc = grpcConfig(f);
        HttpConfig http = httpConfig(f);
        return new ProviderConfigs(
                observability(command),
                backend,
                new InventoryConfig(new InventoryPlan(provider, catalog, offerings, prices), f.nodes.names()),
                timeouts,
                new OrphanPolicy(f.orphanGrace, f.reapOrphans, timeouts.of(TransitionKind.DELETE)),
                new RecoveryPolicy(f.failedRetention, RecoveryPolicy.DEFAULT_REDRAIN_GRACE_SECONDS),
                f.fenceMinEpoch == null ? FenceFloor.NONE : new FenceFloor(f.fenceMinEpoch),
                runtime,
                grpc,
                http,
                state);
    }

    /** Selects the backend, gathers its options and lets it check them. */
    private static BackendConfig backend(ParsedCommandLine command) throws ConfigException {
        BackendOptionsReader reader = new BackendOptionsReader(command);
        LoadedBackend selected = BackendChoice.select(command, reader::declaredBy);
        BackendOptions options = reader.forSelected(selected);
        for (String ignored : reader.ignoredFlags(selected)) {
            log.warn("{} has no effect: the selected backend is {}", ignored, selected.name());
        }
        try {
            selected.validate(options);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage(), e);
        }
        return new BackendConfig(selected, options);
    }

    private static ListenAddress metricsAddress(ProviderFlags f) throws ConfigException {
        try {
            return ListenAddress.parse(f.metricsAddr);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("--metrics-addr: " + e.getMessage());
        }
    }

    private static PriceList prices(ProviderFlags f) throws ConfigException {
        Map<String, Double> overrides;
        try {
            overrides = PriceList.parseOverrides(f.prices);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("--prices: " + e.getMessage());
        }
        return new PriceList(overrides, f.pricePerVcpuHour, f.pricePerGibHour);
    }

    private static TransitionTimeouts timeouts(ProviderFlags f) throws ConfigException {
        TransitionTimeouts defaults = TransitionTimeouts.defaults();
        Duration all = f.transitionTimeout == null ? null : positive("--transition-timeout", f.transitionTimeout);
        return new TransitionTimeouts(
                kindTimeout("--create-timeout", f.createTimeout, all, defaults.of(TransitionKind.CREATE)),
                kindTimeout("--configure-timeout", f.configureTimeout, all, defaults.of(TransitionKind.CONFIGURE)),
                kindTimeout("--drain-timeout", f.drainTimeout, all, defaults.of(TransitionKind.DRAIN)),
                kindTimeout("--delete-timeout", f.deleteTimeout, all, defaults.of(TransitionKind.DELETE)));
    }

    /** A kind's own flag wins over {@code --transition-timeout}, which wins over the default. */
    private static Duration kindTimeout(String flag, Duration value, Duration all, Duration fallback)
            throws ConfigException {
        if (value != null) {
            return positive(flag, value);
        }
        return all != null ? all : fallback;
    }

    private static Duration positive(String flag, Duration d) throws ConfigException {
        if (d.isZero() || d.isNegative()) {
            throw new ConfigException(flag + ": must be > 0, got " + GoDuration.format(d));
        }
        return d;
    }

    private static void requireNotNegative(String flag, Duration d) throws ConfigException {
        if (d.isNegative()) {
            throw new ConfigException(flag + ": must not be negative");
        }
    }

    private static List<Offering> offerings(ProviderFlags f, InstanceTypeCatalog catalog, BackendConfig backend)
            throws ConfigException {
        if (f.offerings != null) {
            return OfferingsFile.load(f.offerings);
        }
        int seed = (int) Math.min(Integer.MAX_VALUE, f.seedCount);
        List<String> nodes = f.nodes.names();
        String zoneA;
        String zoneB;
        if (nodes.size() >= 2) {
            zoneA = nodes.get(0);
            zoneB = nodes.get(1);
        } else if (nodes.size() == 1) {
            zoneA = nodes.get(0);
            zoneB = nodes.get(0);
        } else {
            String seedZone = f.defaultZone.trim();
            if (seedZone.isEmpty()) {
                throw new ConfigException("--default-zone: must not be empty when --nodes is not set");
            }
            zoneA = seedZone + "-a";
            zoneB = seedZone + "-b";
        }
        List<Offering> generated = Offerings.defaults(catalog, zoneA, zoneB, seed);
        List<Offering> offerings = new ArrayList<>(generated);
        offerings.addAll(backend.backend().defaultOfferings(backend.options(), generated));
        return offerings;
    }

    private static GrpcConfig grpcConfig(ProviderFlags f) throws ConfigException {
        if (f.tlsUnnamedClients == UnnamedClients.MUTATE && f.tlsCa == null) {
            // without client certificates every client may mutate anyway: the flag would promise a check
            throw new ConfigException("--tls-unnamed-clients=mutate: set without --tls-ca (no client certificates to"
                    + " tell shards from other clients)");
        }
        return new GrpcConfig(
                f.addr, tls(TlsFiles.Flags.GRPC, f.tlsCert, f.tlsKey, f.tlsCa), f.reflection, f.tlsUnnamedClients);
    }

    private static HttpConfig httpConfig(ProviderFlags f) throws ConfigException {
        TlsFiles.Flags flags = TlsFiles.Flags.HTTP;
        if (f.metricsAddr.isBlank()) {
            String set = f.metricsTlsCert != null
                    ? flags.certificate()
                    : f.metricsTlsKey != null ? flags.privateKey() : f.metricsTlsCa != null ? flags.clientCa() : null;
            if (set != null) {
                throw new ConfigException(set + ": set while --metrics-addr is empty (no HTTP port to secure)");
            }
            return new HttpConfig(Optional.empty(), Optional.empty());
        }
        return new HttpConfig(
                Optional.of(metricsAddress(f)), tls(flags, f.metricsTlsCert, f.metricsTlsKey, f.metricsTlsCa));
    }

    /** One listener's TLS flags: certificate and key both or neither, a client CA only with them. */
    private static Optional<TlsFiles> tls(TlsFiles.Flags flags, Path cert, Path key, Path ca) throws ConfigException {
        if ((cert != null) != (key != null)) {
            throw new ConfigException(
                    flags.certificate() + " and " + flags.privateKey() + ": both are required to enable TLS");
        }
        if (ca != null && cert == null) {
            throw new ConfigException(
                    flags.clientCa() + ": set without " + flags.certificate() + "/" + flags.privateKey());
        }
        if (cert == null) {
            return Optional.empty();
        }
        Optional<Path> caPath = ca == null ? Optional.empty() : Optional.of(readable(flags.clientCa(), ca));
        return Optional.of(
                new TlsFiles(readable(flags.certificate(), cert), readable(flags.privateKey(), key), caPath, flags));
    }

    private static Path readable(String flag, Path p) throws ConfigException {
        if (!Files.isReadable(p) || Files.isDirectory(p)) {
            throw new ConfigException(flag + " " + p + ": not a readable file");
        }
        return p;
    }
}
