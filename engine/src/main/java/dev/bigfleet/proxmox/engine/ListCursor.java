package dev.bigfleet.proxmox.engine;

/**
 * Where a List continues. A first capped List walks the machines in revision order as a ring,
 * starting at a point that moves on with every such List, up to the revision it saw last ({@code
 * bound}); its cursor is a {@link RingPosition} until the ring is walked, and then a {@link Since}.
 * A machine that changes moves past the bound, so a caller who passes the cursor back sees every
 * machine once on the ring and every later change after it.
 */
sealed interface ListCursor {

    /** Every machine changed after {@code revision}, oldest change first. */
    record Since(long revision) implements ListCursor {}

    /**
     * Partway round the ring of machines at revisions up to {@code bound}: the walk began at {@code
     * start}, went up to the bound, wraps to the lowest revision and ends just before {@code start};
     * {@code reached} is the revision of the last machine handed out.
     */
    record RingPosition(long bound, long start, long reached) implements ListCursor {
        /** True when the walk has wrapped: the machine reached lies below the start. */
        boolean wrapped() {
            return reached < start;
        }
    }
}
