package dev.bigfleet.proxmox.engine;

/**
 * Which slots the offerings render: a FAILED machine's slot is offered again by a new machine only
 * while an offering still renders it.
 */
@FunctionalInterface
public interface OfferedSlots {
    /** Every slot counts as offered: for an engine that is not told its offerings. */
    OfferedSlots ANY = slotId -> true;

    boolean offers(String slotId);
}
