package dev.bigfleet.proxmox.server.bench;

import dev.bigfleet.proxmox.api.FenceToken;
import dev.bigfleet.proxmox.api.InstanceTypeCatalog;
import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.api.Offerings;
import dev.bigfleet.proxmox.api.PriceList;
import dev.bigfleet.proxmox.server.backend.BackendRegistry;
import dev.bigfleet.proxmox.server.engine.EngineObserver;
import dev.bigfleet.proxmox.server.engine.LifecycleEngine;
import dev.bigfleet.proxmox.server.engine.MutationRequest;
import dev.bigfleet.proxmox.server.engine.TransitionTimeouts;
import dev.bigfleet.proxmox.server.engine.TransitionWork;
import dev.bigfleet.proxmox.server.store.SqliteStateStore;
import dev.bigfleet.proxmox.spi.BackendContext;
import dev.bigfleet.proxmox.spi.BackendOptions;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Acknowledged mutations per second straight into the engine with durable state: the cost of
 * rules, locks and group-committed writes without a gRPC round trip.
 */
final class EngineThroughput {
    private EngineThroughput() {}

    static double measure(Path state, int machines, int callers, int seconds) throws Exception {
        InstanceTypeCatalog catalog = InstanceTypeCatalog.builtIn(9000);
        var offerings = Offerings.defaults(catalog, "pve-a", "pve-b", machines);
        ProxmoxBackend backend = BackendRegistry.discover(null).require("fake").create(new BackendContext("proxmox",
                List.of(), catalog, offerings, new BackendOptions(Map.of("fake-latency", "0s"))));
        ExecutorService workers = Executors.newCachedThreadPool();
        try (SqliteStateStore store = SqliteStateStore.open(state)) {
            LifecycleEngine engine = new LifecycleEngine(new TransitionWork(backend, catalog, "proxmox"),
                    TransitionTimeouts.defaults(), workers, store, EngineObserver.NONE);
            List<Machine> slots = Offerings.renderSlots("proxmox", offerings, catalog,
                    new PriceList(Map.of(), PriceList.DEFAULT_PER_VCPU_HOUR, PriceList.DEFAULT_PER_GIB_HOUR));
            engine.addMachines(slots);
            List<String> ids = slots.stream().map(Machine::id).toList();
            return LifecycleWalk.measure(ids, callers, seconds, (id, step) -> engine.mutate(request(id, step)));
        } finally {
            workers.shutdownNow();
            backend.close();
        }
    }

    private static MutationRequest request(String id, int step) {
        switch (step) {
            case 0:
                return MutationRequest.create(id, FenceToken.NONE);
            case 1:
                return MutationRequest.configure(id, FenceToken.NONE, "bench", new byte[0], Map.of("pool", "general"));
            case 2:
                return MutationRequest.drain(id, FenceToken.NONE, 0);
            default:
                return MutationRequest.delete(id, FenceToken.NONE);
        }
    }
}
