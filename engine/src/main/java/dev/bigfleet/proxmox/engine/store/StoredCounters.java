package dev.bigfleet.proxmox.engine.store;

/** The counters a durable store returns at startup: the revision and the last operation number minted. */
public record StoredCounters(long revision, long lastOperationNumber) {}
