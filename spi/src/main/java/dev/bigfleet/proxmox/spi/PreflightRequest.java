package dev.bigfleet.proxmox.spi;

import java.util.List;

/**
 * What {@code preflight} is asked to try: the startup checks alone, or with {@code live} also one
 * VM per (instance type, node) pair, made, exercised and destroyed; {@code only} limits the live
 * part to the pairs it names ({@code TYPE@NODE}), all of them when empty.
 */
public record PreflightRequest(boolean live, List<String> only) {
    public PreflightRequest {
        only = List.copyOf(only);
    }

    /** Whether the live part runs for instance type {@code type} on node {@code node}. */
    public boolean liveFor(String type, String node) {
        return live && (only.isEmpty() || only.contains(type + "@" + node));
    }
}
