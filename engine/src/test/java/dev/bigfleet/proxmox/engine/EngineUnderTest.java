package dev.bigfleet.proxmox.engine;

import dev.bigfleet.proxmox.api.CapacityType;
import dev.bigfleet.proxmox.api.InstanceTypeCatalog;
import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.api.Offering;
import dev.bigfleet.proxmox.api.Offerings;
import dev.bigfleet.proxmox.api.PriceList;
import dev.bigfleet.proxmox.engine.store.StateStore;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** An engine for engine tests: the scripted backend, a store of the test's choice, and seeded pve.small slots. */
final class EngineUnderTest implements AutoCloseable {
    final ScriptedBackend backend = new ScriptedBackend();
    final ExecutorService workers = Executors.newCachedThreadPool();
    final LifecycleEngine engine;
    final List<String> ids;

    EngineUnderTest(StateStore store, TransitionTimeouts timeouts, int slots) throws StoreFailure {
        InstanceTypeCatalog catalog = InstanceTypeCatalog.builtIn(9000);
        List<Offering> offerings =
                List.of(new Offering("pve.small", "z", CapacityType.ON_DEMAND, slots, Map.of("cpu", "1"), Map.of()));
        PriceList prices = new PriceList(Map.of(), 0.003, 0.0008);
        engine = new LifecycleEngine(
                new TransitionWork(backend, new InventoryPlan("proxmox", catalog, offerings, prices)),
                timeouts,
                workers,
                store,
                EngineObserver.NONE);
        List<Machine> rendered = Offerings.renderSlots("proxmox", offerings, catalog, prices);
        engine.addMachines(rendered);
        ids = rendered.stream().map(Machine::id).toList();
    }

    @Override
    public void close() {
        backend.release.countDown();
        workers.shutdownNow();
    }
}
