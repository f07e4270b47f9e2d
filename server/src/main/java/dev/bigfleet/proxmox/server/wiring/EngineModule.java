package dev.bigfleet.proxmox.server.wiring;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import com.google.inject.name.Named;
import dev.bigfleet.proxmox.engine.EngineObserver;
import dev.bigfleet.proxmox.engine.FenceFloor;
import dev.bigfleet.proxmox.engine.InventoryPlan;
import dev.bigfleet.proxmox.engine.InventorySeeder;
import dev.bigfleet.proxmox.engine.LifecycleEngine;
import dev.bigfleet.proxmox.engine.OfferedSlots;
import dev.bigfleet.proxmox.engine.OrphanPolicy;
import dev.bigfleet.proxmox.engine.RecoveryPolicy;
import dev.bigfleet.proxmox.engine.TransitionTimeouts;
import dev.bigfleet.proxmox.server.config.InventoryConfig;
import dev.bigfleet.proxmox.server.metrics.ProviderMetrics;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The lifecycle engine and its parts (transition work, seeder, reconciler: built from their
 * constructors), the settings they take, and the pool that runs transitions.
 */
public final class EngineModule extends AbstractModule {
    private final InventoryConfig inventory;
    private final TransitionTimeouts timeouts;
    private final OrphanPolicy orphans;
    private final RecoveryPolicy recovery;
    private final FenceFloor fenceFloor;

    public EngineModule(
            InventoryConfig inventory,
            TransitionTimeouts timeouts,
            OrphanPolicy orphans,
            RecoveryPolicy recovery,
            FenceFloor fenceFloor) {
        this.inventory = inventory;
        this.timeouts = timeouts;
        this.orphans = orphans;
        this.recovery = recovery;
        this.fenceFloor = fenceFloor;
    }

    @Override
    protected void configure() {
        bind(InventoryConfig.class).toInstance(inventory);
        bind(InventoryPlan.class).toInstance(inventory.plan());
        bind(TransitionTimeouts.class).toInstance(timeouts);
        bind(OrphanPolicy.class).toInstance(orphans);
        bind(RecoveryPolicy.class).toInstance(recovery);
        bind(FenceFloor.class).toInstance(fenceFloor);
        bind(OfferedSlots.class).to(InventorySeeder.class);
    }

    @Provides
    @Singleton
    @Named(LifecycleEngine.TRANSITION_WORKERS)
    ExecutorService transitionWorkers() {
        return Executors.newCachedThreadPool(daemonThreads("transition"));
    }

    @Provides
    @Singleton
    EngineObserver observer(ProviderMetrics metrics) {
        return metrics.engine();
    }

    static ThreadFactory daemonThreads(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
