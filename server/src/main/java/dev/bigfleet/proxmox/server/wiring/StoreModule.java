package dev.bigfleet.proxmox.server.wiring;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import dev.bigfleet.proxmox.engine.store.InMemoryStateStore;
import dev.bigfleet.proxmox.engine.store.StateStore;
import dev.bigfleet.proxmox.engine.store.StoreException;
import dev.bigfleet.proxmox.server.config.StateConfig;
import dev.bigfleet.proxmox.server.metrics.MeteredStateStore;
import dev.bigfleet.proxmox.server.metrics.ProviderMetrics;
import dev.bigfleet.proxmox.store.sqlite.SqliteStateStore;

/**
 * The state store: SQLite with {@code --state}, memory without. A locked, foreign or damaged state
 * file stops startup with its own one-line message. The file is read on the store's thread while
 * the rest of the wiring goes on.
 */
public final class StoreModule extends AbstractModule {
    private final StateConfig config;

    public StoreModule(StateConfig config) {
        this.config = config;
    }

    @Override
    protected void configure() {
        bind(StateConfig.class).toInstance(config);
    }

    @Provides
    @Singleton
    StateStore store(ProviderMetrics metrics, Closeables closeables) throws StoreException {
        StateStore store =
                config.path().isPresent() ? SqliteStateStore.open(config.path().get()) : new InMemoryStateStore();
        return closeables.register(new MeteredStateStore(store, metrics.store()));
    }
}
