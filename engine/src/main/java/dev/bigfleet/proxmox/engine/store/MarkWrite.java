package dev.bigfleet.proxmox.engine.store;

import dev.bigfleet.proxmox.api.FenceMark;

/** A fence mark that advanced for a known machine. */
public record MarkWrite(String machineId, String shardId, FenceMark mark) {}
