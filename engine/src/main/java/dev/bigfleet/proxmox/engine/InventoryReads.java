package dev.bigfleet.proxmox.engine;

import dev.bigfleet.proxmox.api.Machine;
import java.util.ArrayList;
import java.util.List;
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
        OptionalLong since =
                query.sinceRevision() == null ? OptionalLong.empty() : cursors.decode(query.sinceRevision());
        Page page = new Page(query);
        long upTo = table.index().visitSince(since.orElse(0), page::offer);
        // a capped page continues right after its last machine; otherwise the caller is up to date
        long reached = page.full ? page.lastRevision : upTo;
        return new ListResult(page.machines, cursors.encode(reached));
    }

    /** One List page as the index hands it machines, oldest change first. */
    private static final class Page {
        private final ListQuery query;
        final List<Machine> machines = new ArrayList<>();
        long lastRevision;
        boolean full;

        Page(ListQuery query) {
            this.query = query;
        }

        /** Takes {@code m} if it matches; false once the page is full and another would follow. */
        boolean offer(long revision, Machine m) {
            if (!query.states().isEmpty() && !query.states().contains(m.state())) {
                return true;
            }
            if (query.maxResults() > 0 && machines.size() == query.maxResults()) {
                full = true;
                return false;
            }
            machines.add(m);
            lastRevision = revision;
            return true;
        }
    }
}
