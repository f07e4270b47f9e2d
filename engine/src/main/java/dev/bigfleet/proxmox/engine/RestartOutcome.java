package dev.bigfleet.proxmox.engine;

/**
 * What a restart did with the transitions it found in flight.
 *
 * @param resumed Creates, Deletes and Drains driven on under their operation ids
 * @param failed Configures (and transitions without a recorded operation) turned FAILED
 */
public record RestartOutcome(int resumed, int failed) {}
