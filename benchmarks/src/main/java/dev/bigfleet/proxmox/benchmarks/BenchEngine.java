package dev.bigfleet.proxmox.benchmarks;

import dev.bigfleet.proxmox.api.InstanceTypeCatalog;
import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.api.Offerings;
import dev.bigfleet.proxmox.api.PriceList;
import dev.bigfleet.proxmox.engine.EngineObserver;
import dev.bigfleet.proxmox.engine.InventoryPlan;
import dev.bigfleet.proxmox.engine.LifecycleEngine;
import dev.bigfleet.proxmox.engine.TransitionTimeouts;
import dev.bigfleet.proxmox.engine.TransitionWork;
import dev.bigfleet.proxmox.server.plugin.BackendRegistry;
import dev.bigfleet.proxmox.spi.BackendContext;
import dev.bigfleet.proxmox.spi.BackendOptions;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.store.sqlite.SqliteStateStore;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * An engine for the engine-level figures: durable state in {@code state}, the fake backend with no
 * latency, and the default offerings rendered to {@code machines} slots, all seeded.
 */
final class BenchEngine implements AutoCloseable {
    final LifecycleEngine engine;
    final List<Machine> slots;
    private final ProxmoxBackend backend;
    private final ExecutorService workers = Executors.newCachedThreadPool();
    private final SqliteStateStore store;

    BenchEngine(Path state, int machines) throws Exception {
        InstanceTypeCatalog catalog = InstanceTypeCatalog.builtIn(9000);
        var offerings = Offerings.defaults(catalog, "pve-a", "pve-b", machines);
        backend = BackendRegistry.discover(Optional.empty())
                .require("fake")
                .create(new BackendContext(
                        "proxmox", List.of(), catalog, offerings, BackendOptions.of(Map.of("latency", "0s"))));
        store = SqliteStateStore.open(state);
        PriceList prices = new PriceList(Map.of(), PriceList.DEFAULT_PER_VCPU_HOUR, PriceList.DEFAULT_PER_GIB_HOUR);
        engine = new LifecycleEngine(
                new TransitionWork(backend, new InventoryPlan("proxmox", catalog, offerings, prices)),
                TransitionTimeouts.defaults(),
                workers,
                store,
                EngineObserver.NONE);
        slots = Offerings.renderSlots("proxmox", offerings, catalog, prices);
        engine.addMachines(slots);
    }

    @Override
    public void close() {
        // transitions still running queue their results first: the store then writes them out as it closes
        workers.shutdown();
        try {
            workers.awaitTermination(10, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        store.close();
        backend.close();
    }
}
