package dev.bigfleet.proxmox.engine;

import dev.bigfleet.proxmox.api.MachineState;
import java.util.Set;

/**
 * A List call: the states to match (empty = any), a cap (0 = none) and the cursor to continue from
 * (null = full list).
 */
// the cursor is opaque bytes; queries are never compared
@SuppressWarnings("ArrayRecordComponent")
public record ListQuery(Set<MachineState> states, int maxResults, byte[] sinceRevision) {
    public ListQuery {
        states = Set.copyOf(states);
        maxResults = Math.max(0, maxResults);
    }
}
