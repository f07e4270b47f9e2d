package dev.bigfleet.proxmox.server.engine;

import java.util.List;

/** Everything a durable store returns at startup. */
public record StoredState(List<StoredMachine> machines, long revision, long lastOperationNumber) {
    public StoredState {
        machines = List.copyOf(machines);
    }
}
