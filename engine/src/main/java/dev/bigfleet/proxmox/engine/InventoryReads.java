package dev.bigfleet.proxmox.engine;

import dev.bigfleet.proxmox.api.Machine;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads: Get, List with revision cursors, and snapshots of the inventory. They only read published
 * snapshots, so a read never waits on a change and never sees one that is not yet durable.
 */
final class InventoryReads {
    private final MachineTable table;
    private final CursorCodec cursors;
    /** Where the next capped List without a cursor starts its ring. */
    private volatile long nextRingStart = 1;

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

    /**
     * A page of the List. Without a cursor and with a cap, the walk is a ring that starts where the
     * previous such List stopped, so back-to-back capped Lists hand out different machines; the
     * cursor of a page remembers where its ring began, so a caller who passes it back still sees
     * every machine exactly once, then what changed since.
     */
    ListResult list(ListQuery query) {
        Optional<ListCursor> cursor =
                query.sinceRevision() == null ? Optional.empty() : cursors.decode(query.sinceRevision());
        if (cursor.isEmpty() && query.maxResults() == 0) {
            cursor = Optional.of(new ListCursor.Since(0));
        }
        Page page = new Page(query);
        if (cursor.isPresent() && cursor.get() instanceof ListCursor.Since since) {
            long upTo =
                    table.index().visit(now -> List.of(new RevisionIndex.Range(since.revision(), now)), page::offer);
            // a capped page continues right after its last machine; otherwise the caller is up to date
            return result(page, new ListCursor.Since(page.full ? page.lastRevision : upTo));
        }
        Ring ring = cursor.map(c -> Ring.resume((ListCursor.RingPosition) c))
                .orElseGet(() -> Ring.startingAt(nextRingStart));
        long upTo = table.index().visit(ring::ranges, page::offer);
        if (cursor.isEmpty() && !page.machines.isEmpty()) {
            nextRingStart = page.lastRevision + 1;
        }
        if (!page.full) {
            return result(page, new ListCursor.Since(upTo));
        }
        return result(
                page,
                page.lastRevision > ring.bound
                        ? new ListCursor.Since(page.lastRevision)
                        : new ListCursor.RingPosition(ring.bound, ring.start, page.lastRevision));
    }

    private ListResult result(Page page, ListCursor next) {
        return new ListResult(page.machines, cursors.encode(next));
    }

    /**
     * The walk of a capped List round the machines at revisions up to {@code bound}: from {@code
     * start} up to the bound, then from the lowest revision to just before the start, then on to
     * whatever changed after the bound.
     */
    private static final class Ring {
        private final long requestedStart;
        private final long reached;
        long bound;
        long start;

        private Ring(long bound, long start, long reached, long requestedStart) {
            this.bound = bound;
            this.start = start;
            this.reached = reached;
            this.requestedStart = requestedStart;
        }

        static Ring startingAt(long start) {
            return new Ring(-1, -1, -1, start);
        }

        static Ring resume(ListCursor.RingPosition at) {
            return new Ring(at.bound(), at.start(), at.reached(), at.start());
        }

        /** The ranges still to walk, given what is published now. */
        List<RevisionIndex.Range> ranges(long upTo) {
            if (bound < 0) {
                bound = upTo;
                start = requestedStart >= 1 && requestedStart <= upTo ? requestedStart : 1;
                return List.of(new RevisionIndex.Range(start - 1, bound), new RevisionIndex.Range(0, start - 1));
            }
            RevisionIndex.Range changedSince = new RevisionIndex.Range(bound, upTo);
            if (reached < start) {
                return List.of(new RevisionIndex.Range(reached, start - 1), changedSince);
            }
            return List.of(
                    new RevisionIndex.Range(reached, bound), new RevisionIndex.Range(0, start - 1), changedSince);
        }
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
