package dev.bigfleet.proxmox.engine;

import dev.bigfleet.proxmox.api.Machine;

/** The ack of a lifecycle call: the operation id and the machine as it stands after the call. */
public record Accepted(String operationId, Machine machine) {}
