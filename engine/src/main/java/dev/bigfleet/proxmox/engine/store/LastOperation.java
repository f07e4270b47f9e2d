package dev.bigfleet.proxmox.engine.store;

import dev.bigfleet.proxmox.api.TransitionKind;

/** The most recent operation accepted on a machine: what an idempotent retry is matched against. */
public record LastOperation(TransitionKind kind, String operationId, String clusterId) {}
