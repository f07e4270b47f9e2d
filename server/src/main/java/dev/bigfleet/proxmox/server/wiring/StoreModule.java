package dev.bigfleet.proxmox.server.wiring;

import com.google.inject.AbstractModule;
import dev.bigfleet.proxmox.server.engine.StateStore;

/**
 * Binds the state store. Like the backend it is opened before the injector, so a locked, foreign
 * or damaged state file stops startup with its own one-line message.
 */
public final class StoreModule extends AbstractModule {
    private final StateStore store;

    public StoreModule(StateStore store) {
        this.store = store;
    }

    @Override
    protected void configure() {
        bind(StateStore.class).toInstance(store);
    }
}
