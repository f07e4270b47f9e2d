package dev.bigfleet.proxmox.server.wiring;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import dev.bigfleet.proxmox.engine.store.InMemoryStateStore;
import dev.bigfleet.proxmox.engine.store.SharedStateStore;
import dev.bigfleet.proxmox.engine.store.StateStore;
import dev.bigfleet.proxmox.engine.store.StoreException;
import dev.bigfleet.proxmox.server.config.SharedState;
import dev.bigfleet.proxmox.server.config.StateConfig;
import dev.bigfleet.proxmox.server.metrics.MeteredStateStore;
import dev.bigfleet.proxmox.server.metrics.ProviderMetrics;
import dev.bigfleet.proxmox.store.postgresql.PostgresStateStore;
import dev.bigfleet.proxmox.store.postgresql.PostgresTarget;
import dev.bigfleet.proxmox.store.sqlite.SqliteStateStore;
import java.util.Optional;

/**
 * The state store: SQLite with {@code --state PATH}, PostgreSQL shared by replicas with {@code
 * --state postgresql://...}, memory without. A locked, foreign or damaged state file, or a database
 * that cannot be reached or is not a provider's, stops startup with its own one-line message. The
 * SQLite file is read on the store's thread while the rest of the wiring goes on.
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

    /** The store replicas share, when the state is in PostgreSQL. */
    @Provides
    @Singleton
    Optional<SharedStateStore> shared(Closeables closeables) throws StoreException {
        if (config.shared().isEmpty()) {
            return Optional.empty();
        }
        SharedState s = config.shared().get();
        // a leader frozen inside a write holds the lease row's lock at most one lease long
        PostgresTarget target =
                new PostgresTarget(s.jdbcUrl(), s.user(), s.password().orElse(null), s.description(), s.lease());
        return Optional.of(closeables.register(PostgresStateStore.open(target)));
    }

    @Provides
    @Singleton
    StateStore store(Optional<SharedStateStore> shared, ProviderMetrics metrics, Closeables closeables)
            throws StoreException {
        StateStore store;
        if (shared.isPresent()) {
            store = shared.get();
        } else if (config.path().isPresent()) {
            store = SqliteStateStore.open(config.path().get());
        } else {
            store = new InMemoryStateStore();
        }
        return closeables.register(new MeteredStateStore(store, metrics.store()));
    }
}
