package dev.bigfleet.proxmox.engine;

import dev.bigfleet.proxmox.api.Machine;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Reads: Get, List with revision cursors, and snapshots of the inventory. They only read published
 * snapshots, so a read never waits on a change and never sees one that is not yet durable.
 */
final class InventoryReads {
    private final MachineTable table;
    private final CursorCodec cursors;

    InventoryReads(MachineTable table) {
        this.table = table;
        this.cursors = new CursorCodec(table.store().cursorKey());
    }

    Optional<Machine> get(String id) {
        MachineEntry entry = table.entry(id);
        // an entry not yet durable is not yet visible
        return entry == null || entry.revision() == 0 ? Optional.empty() : Optional.of(entry.snapshot());
    }

    /** Every machine, for reconciling offerings and the substrate. */
    List<Machine> snapshot() {
        List<Machine> all = new ArrayList<>(table.size());
        for (MachineEntry entry : table.entries()) {
            all.add(entry.snapshot());
        }
        return all;
    }

    long revision() {
        return table.index().current();
    }

    /** A cursor for "now": a delta from it holds only what changes afterwards. */
    byte[] currentCursor() {
        return cursors.encode(table.index().current());
    }

    ListResult list(ListQuery query) {
        long upTo = table.index().current();
        OptionalLong since =
                query.sinceRevision() == null ? OptionalLong.empty() : cursors.decode(query.sinceRevision());
        NavigableMap<Long, MachineEntry> changed = table.index().changedBetween(since.orElse(0), upTo);
        List<Machine> page = new ArrayList<>();
        long lastReturned = 0;
        boolean more = false;
        for (Map.Entry<Long, MachineEntry> e : changed.entrySet()) {
            Machine m = e.getValue().snapshot();
            if (!query.states().isEmpty() && !query.states().contains(m.state())) {
                continue;
            }
            if (query.maxResults() > 0 && page.size() == query.maxResults()) {
                more = true;
                break;
            }
            page.add(m);
            lastReturned = e.getKey();
        }
        // a capped page continues right after its last machine; otherwise the caller is up to date
        long reached = more ? lastReturned : upTo;
        return new ListResult(page, cursors.encode(reached));
    }
}
