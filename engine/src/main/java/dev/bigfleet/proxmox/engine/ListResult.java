package dev.bigfleet.proxmox.engine;

import dev.bigfleet.proxmox.api.Machine;
import java.util.List;

/** A page of machines and the cursor that continues after it. */
// the cursor is opaque bytes; results are never compared
@SuppressWarnings("ArrayRecordComponent")
public record ListResult(List<Machine> machines, byte[] revision) {}
