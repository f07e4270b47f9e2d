package dev.bigfleet.proxmox.engine.store;

/** Receives the changes a standby follows, in commit order; see {@link SharedStateStore#follow}. */
public interface StoreFollower {
    /** A machine as the store now holds it (its marks complete): it replaces what the view had. */
    void changed(StoredMachine machine);

    /** A machine the leader retired. */
    void removed(String machineId);

    /** The store's counters after the changes handed over. */
    void counters(StoredCounters counters);
}
