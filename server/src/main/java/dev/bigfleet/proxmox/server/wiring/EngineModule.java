package dev.bigfleet.proxmox.server.wiring;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import com.google.inject.name.Named;
import dev.bigfleet.proxmox.server.config.ProviderConfig;
import dev.bigfleet.proxmox.server.engine.EngineObserver;
import dev.bigfleet.proxmox.server.engine.InventorySeeder;
import dev.bigfleet.proxmox.server.engine.LifecycleEngine;
import dev.bigfleet.proxmox.server.engine.Reconciler;
import dev.bigfleet.proxmox.server.engine.StateStore;
import dev.bigfleet.proxmox.server.engine.TransitionWork;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** The lifecycle engine, its worker pool, the seeder and the reconciler. */
public final class EngineModule extends AbstractModule {
    @Provides
    @Singleton
    @Named("transitions")
    ExecutorService transitionWorkers() {
        return Executors.newCachedThreadPool(daemonThreads("transition"));
    }

    @Provides
    @Singleton
    LifecycleEngine engine(ProviderConfig config, ProxmoxBackend backend,
            @Named("transitions") ExecutorService workers, StateStore store, EngineObserver observer) {
        return new LifecycleEngine(new TransitionWork(backend, config.catalog(), config.providerLabel()),
                config.timeouts(), workers, store, observer);
    }

    @Provides
    @Singleton
    InventorySeeder seeder(ProviderConfig config) {
        return new InventorySeeder(config.providerLabel(), config.offerings(), config.catalog(), config.prices());
    }

    @Provides
    @Singleton
    Reconciler reconciler(ProviderConfig config, LifecycleEngine engine, ProxmoxBackend backend,
            InventorySeeder seeder, EngineObserver observer) {
        return new Reconciler(engine, backend, seeder, config.orphans(), observer);
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
