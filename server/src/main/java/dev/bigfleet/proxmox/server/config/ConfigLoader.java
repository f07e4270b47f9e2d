package dev.bigfleet.proxmox.server.config;

import dev.bigfleet.proxmox.api.CapacityType;
import dev.bigfleet.proxmox.api.GoDuration;
import dev.bigfleet.proxmox.api.InstanceTypeCatalog;
import dev.bigfleet.proxmox.api.Offering;
import dev.bigfleet.proxmox.api.Offerings;
import dev.bigfleet.proxmox.api.PriceList;
import dev.bigfleet.proxmox.api.TransitionKind;
import dev.bigfleet.proxmox.server.backend.BackendRegistry;
import dev.bigfleet.proxmox.server.engine.OrphanPolicy;
import dev.bigfleet.proxmox.server.engine.TransitionTimeouts;
import dev.bigfleet.proxmox.spi.BackendOptions;
import dev.bigfleet.proxmox.spi.ProxmoxBackendFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Validates {@link ProviderFlags} into a {@link ProviderConfig}, in a fixed order, stopping at the
 * first mistake with one line that names the flag (or file entry) and what is wrong.
 */
public final class ConfigLoader {
    /** Slots of the extra offering whose Creates fail, added in fault mode to the default offerings. */
    static final int FAULT_SLOTS = 8;

    private ConfigLoader() {}

    public static ProviderConfig load(ProviderFlags f) throws ConfigException {
        String provider = f.provider.trim();
        if (provider.isEmpty() || provider.chars().anyMatch(c -> Character.isWhitespace(c) || Character.isISOControl(c))) {
            throw new ConfigException("--provider: \"" + f.provider + "\" must be non-empty, without spaces");
        }
        List<String> nodes = NodeList.parse(f.nodes);
        long templateVmid = positiveLong("--template-vmid", f.templateVmid);
        InstanceTypeCatalog catalog = f.instanceTypes.isBlank()
                ? InstanceTypeCatalog.builtIn(templateVmid)
                : CatalogFile.load(Path.of(f.instanceTypes), templateVmid);
        PriceList prices = prices(f);

        TransitionTimeouts timeouts = timeouts(f);
        Duration reconcile = duration("--reconcile-interval", f.reconcileInterval);
        Duration shutdownGrace = duration("--shutdown-grace", f.shutdownGrace);
        Duration orphanGrace = duration("--orphan-grace", f.orphanGrace);
        if (orphanGrace.isNegative()) {
            throw new ConfigException("--orphan-grace: must not be negative");
        }
        if (shutdownGrace.isNegative()) {
            throw new ConfigException("--shutdown-grace: must not be negative");
        }

        String backendName = BackendSelection.resolve(f.proxmoxBackend, f.useFakeBackend, f.proxmoxApiUrl);
        Path pluginDir = f.pluginDir.isBlank() ? null : Path.of(f.pluginDir);
        ProxmoxBackendFactory factory = BackendRegistry.discover(pluginDir).require(backendName);
        BackendOptions options = new BackendOptions(f.backendOptions());
        if (backendName.equals(BackendSelection.FAKE)) {
            duration("--fake-latency", f.fakeLatency);
        }

        List<Offering> offerings = offerings(f, catalog, nodes, backendName);
        try {
            Offerings.validate(offerings, catalog);
        } catch (IllegalArgumentException e) {
            throw new ConfigException((f.offerings.isBlank() ? "" : "--offerings " + f.offerings + ": ") + e.getMessage());
        }

        Optional<Path> statePath = f.state.isBlank() ? Optional.empty() : Optional.of(Path.of(f.state.trim()));
        Optional<GrpcTls> tls = grpcTls(f);
        ListenAddress grpc = ListenAddress.parse("--addr", f.addr);
        Optional<ListenAddress> http = f.metricsAddr.isBlank()
                ? Optional.empty()
                : Optional.of(ListenAddress.parse("--metrics-addr", f.metricsAddr));
        return new ProviderConfig(grpc, http, provider, backendName, factory, options, nodes, catalog,
                List.copyOf(offerings), prices, timeouts, reconcile.isNegative() ? Duration.ZERO : reconcile,
                shutdownGrace, f.reflection, tls, statePath,
                new OrphanPolicy(orphanGrace, f.reapOrphans, timeouts.of(TransitionKind.DELETE)));
    }

    private static PriceList prices(ProviderFlags f) throws ConfigException {
        Map<String, Double> overrides;
        try {
            overrides = PriceList.parseOverrides(f.prices);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("--prices: " + e.getMessage());
        }
        double perVcpu = price("--price-per-vcpu-hour", f.pricePerVcpuHour);
        double perGib = price("--price-per-gib-hour", f.pricePerGibHour);
        return new PriceList(overrides, perVcpu, perGib);
    }

    private static double price(String flag, String value) throws ConfigException {
        double price;
        try {
            price = Double.parseDouble(value.trim());
        } catch (NumberFormatException e) {
            throw new ConfigException(flag + ": \"" + value + "\" is not a number");
        }
        if (Double.isNaN(price) || Double.isInfinite(price) || price < 0) {
            throw new ConfigException(flag + ": must be a finite number >= 0, got " + value);
        }
        return price;
    }

    private static TransitionTimeouts timeouts(ProviderFlags f) throws ConfigException {
        TransitionTimeouts defaults = TransitionTimeouts.defaults();
        Duration all = f.transitionTimeout.isBlank() ? null : timeout("--transition-timeout", f.transitionTimeout);
        return new TransitionTimeouts(
                kindTimeout("--create-timeout", f.createTimeout, all, defaults.of(TransitionKind.CREATE)),
                kindTimeout("--configure-timeout", f.configureTimeout, all, defaults.of(TransitionKind.CONFIGURE)),
                kindTimeout("--drain-timeout", f.drainTimeout, all, defaults.of(TransitionKind.DRAIN)),
                kindTimeout("--delete-timeout", f.deleteTimeout, all, defaults.of(TransitionKind.DELETE)));
    }

    /** A kind's own flag wins over {@code --transition-timeout}, which wins over the default. */
    private static Duration kindTimeout(String flag, String value, Duration all, Duration fallback)
            throws ConfigException {
        if (!value.isBlank()) {
            return timeout(flag, value);
        }
        return all != null ? all : fallback;
    }

    private static Duration timeout(String flag, String value) throws ConfigException {
        Duration d = duration(flag, value);
        if (d.isZero() || d.isNegative()) {
            throw new ConfigException(flag + ": must be > 0, got " + value);
        }
        return d;
    }

    private static Duration duration(String flag, String value) throws ConfigException {
        try {
            return GoDuration.parse(value);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(flag + ": " + e.getMessage());
        }
    }

    private static long positiveLong(String flag, String value) throws ConfigException {
        long n;
        try {
            n = Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new ConfigException(flag + ": \"" + value + "\" is not a whole number");
        }
        if (n <= 0) {
            throw new ConfigException(flag + ": must be > 0, got " + n);
        }
        return n;
    }

    private static List<Offering> offerings(ProviderFlags f, InstanceTypeCatalog catalog, List<String> nodes,
            String backendName) throws ConfigException {
        if (!f.offerings.isBlank()) {
            return OfferingsFile.load(Path.of(f.offerings));
        }
        int seed = (int) Math.min(Integer.MAX_VALUE, positiveLong("--seed-count", f.seedCount));
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
        List<Offering> offerings = new ArrayList<>(Offerings.defaults(catalog, zoneA, zoneB, seed));
        if (f.fakeFaults && backendName.equals(BackendSelection.FAKE)) {
            offerings.add(new Offering(catalog.names().get(0), zoneA + "-faults", CapacityType.ON_DEMAND,
                    FAULT_SLOTS, Map.of("cpu", "1", "memory", "2Gi"), Map.of(Offerings.CREATE_FAULT_LABEL, "error")));
        }
        return offerings;
    }

    private static Optional<GrpcTls> grpcTls(ProviderFlags f) throws ConfigException {
        boolean cert = !f.tlsCert.isBlank();
        boolean key = !f.tlsKey.isBlank();
        boolean ca = !f.tlsCa.isBlank();
        if (cert != key) {
            throw new ConfigException("--tls-cert and --tls-key: both are required to enable TLS");
        }
        if (ca && !cert) {
            throw new ConfigException("--tls-ca: set without --tls-cert/--tls-key");
        }
        if (!cert) {
            return Optional.empty();
        }
        Path certPath = readable("--tls-cert", f.tlsCert);
        Path keyPath = readable("--tls-key", f.tlsKey);
        Optional<Path> caPath = ca ? Optional.of(readable("--tls-ca", f.tlsCa)) : Optional.empty();
        return Optional.of(new GrpcTls(certPath, keyPath, caPath));
    }

    private static Path readable(String flag, String value) throws ConfigException {
        Path p = Path.of(value);
        if (!Files.isReadable(p) || Files.isDirectory(p)) {
            throw new ConfigException(flag + " " + value + ": not a readable file");
        }
        return p;
    }
}
