package dev.bigfleet.proxmox.server.engine;

import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings the inventory in line with the substrate: adds machines for managed VMs the engine does
 * not know, and refreshes facts that come from configuration. It never touches state, host,
 * cluster, metadata or last_error, and a pass that changes nothing bumps no revision.
 */
public final class Reconciler {
    private static final Logger log = LoggerFactory.getLogger(Reconciler.class);

    private final LifecycleEngine engine;
    private final ProxmoxBackend backend;
    private final InventorySeeder seeder;

    public Reconciler(LifecycleEngine engine, ProxmoxBackend backend, InventorySeeder seeder) {
        this.engine = engine;
        this.backend = backend;
        this.seeder = seeder;
    }

    /** Outcome of one pass. */
    public record Pass(int added, int refreshed) {}

    public Pass runOnce() throws BackendException, StoreFailure {
        List<Machine> wanted = seeder.inventory(backend.describeManaged());
        Map<String, Machine> slotsById = seeder.slots().stream()
                .collect(Collectors.toMap(Machine::id, Function.identity()));
        List<Machine> unknown = new ArrayList<>();
        int refreshed = 0;
        for (Machine m : wanted) {
            if (engine.get(m.id()).isEmpty()) {
                unknown.add(m);
                continue;
            }
            Machine slot = slotsById.get(m.id());
            if (slot != null && engine.refreshFacts(m.id(), current -> current.toBuilder()
                    .pricePerHour(slot.pricePerHour())
                    .resources(slot.resources())
                    .allocatable(current.allocatable().isEmpty() ? slot.allocatable() : current.allocatable())
                    .labels(slot.labels())
                    .build())) {
                refreshed++;
            }
        }
        int added = engine.addMachines(unknown);
        if (added > 0 || refreshed > 0) {
            log.info("reconcile: added {} machines, refreshed {}", added, refreshed);
        }
        return new Pass(added, refreshed);
    }
}
