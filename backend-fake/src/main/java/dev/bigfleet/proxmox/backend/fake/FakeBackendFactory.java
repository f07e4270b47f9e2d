package dev.bigfleet.proxmox.backend.fake;

import dev.bigfleet.proxmox.api.CapacityType;
import dev.bigfleet.proxmox.api.Offering;
import dev.bigfleet.proxmox.spi.BackendContext;
import dev.bigfleet.proxmox.spi.BackendOption;
import dev.bigfleet.proxmox.spi.BackendOptions;
import dev.bigfleet.proxmox.spi.BackendSpi;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.spi.ProxmoxBackendFactory;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Selected with {@code --proxmox-backend fake} or {@code --use-fake-backend}. Options: {@code latency}
 * (per simulated step, default 200ms, {@code 0s} for instant) and {@code faults} (honour the fault
 * selectors).
 */
public final class FakeBackendFactory implements ProxmoxBackendFactory {
    public static final String NAME = "fake";
    /** Slots of the extra offering whose Creates fail, added in fault mode to the default offerings. */
    static final int FAULT_SLOTS = 8;

    private static final Logger log = LoggerFactory.getLogger(FakeBackendFactory.class);

    @Override
    public int spiVersion() {
        return BackendSpi.VERSION;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "an in-memory Proxmox cluster for trying the provider without one; no real VM is created";
    }

    @Override
    public List<BackendOption> options() {
        return FakeOptions.ALL;
    }

    @Override
    public Optional<String> autoHint() {
        return Optional.of("pass " + FakeOptions.USE.flags().get(0) + " or --proxmox-backend " + NAME
                + " to run on the in-memory fake");
    }

    @Override
    public void validate(BackendOptions options) {
        FakeSettings.from(options);
    }

    /** In fault mode, one offering whose Creates all fail, next to the first generated zone. */
    @Override
    public List<Offering> defaultOfferings(BackendOptions options, List<Offering> generated) {
        if (!options.bool(FakeOptions.FAULTS) || generated.isEmpty()) {
            return List.of();
        }
        Offering first = generated.get(0);
        return List.of(new Offering(
                first.instanceType(),
                first.zone() + "-faults",
                CapacityType.ON_DEMAND,
                FAULT_SLOTS,
                Map.of("cpu", "1", "memory", "2Gi"),
                Map.of(FaultInjector.CREATE_FAULT_LABEL, FaultInjector.CREATE_FAULT_VALUE)));
    }

    @Override
    public ProxmoxBackend create(BackendContext context) {
        FakeSettings settings = FakeSettings.from(context.options());
        // every offering zone is a node, so the fake accepts any configuration the engine accepts
        Set<String> nodes = new LinkedHashSet<>(context.nodes());
        for (Offering offering : context.offerings()) {
            nodes.add(offering.zone());
        }
        SimulatedCluster cluster = new SimulatedCluster(nodes);
        // loud on purpose: a production deployment that lands here silently would lose every Create
        log.warn(
                "the IN-MEMORY fake Proxmox backend is in use: no real VMs will be created"
                        + " (provider={}, nodes={}, {})",
                context.providerLabel(),
                String.join(",", nodes),
                settings);
        return new MeteredFakeBackend(new FakeProxmoxBackend(settings, cluster), context.apiCalls());
    }
}
