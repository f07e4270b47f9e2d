package dev.bigfleet.proxmox.backend.fake;

import dev.bigfleet.proxmox.api.Offering;
import dev.bigfleet.proxmox.spi.BackendContext;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.spi.ProxmoxBackendFactory;
import java.util.LinkedHashSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Selected with {@code --proxmox-backend fake}. Options: {@code --fake-latency} (per simulated step,
 * default 200ms, {@code 0s} for instant) and {@code --fake-faults} (honour the fault selectors).
 */
public final class FakeBackendFactory implements ProxmoxBackendFactory {
    public static final String NAME = "fake";

    private static final Logger log = LoggerFactory.getLogger(FakeBackendFactory.class);

    @Override
    public String name() {
        return NAME;
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
        log.warn("the IN-MEMORY fake Proxmox backend is in use: no real VMs will be created"
                + " (provider={}, nodes={}, {})", context.providerLabel(), String.join(",", nodes), settings);
        return new MeteredFakeBackend(new FakeProxmoxBackend(settings, cluster), context.apiCalls());
    }
}
