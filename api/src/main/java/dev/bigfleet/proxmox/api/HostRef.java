package dev.bigfleet.proxmox.api;

import java.util.Objects;

/**
 * Where a machine runs: the provider label and {@code <node>/<vmid>}. Empty for machines without
 * a VM.
 */
public record HostRef(String provider, String ref) {
    public static final HostRef NONE = new HostRef("", "");

    public HostRef {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(ref, "ref");
    }

    public static HostRef of(String provider, String node, long vmid) {
        return new HostRef(provider, node + "/" + vmid);
    }

    public boolean isEmpty() {
        return provider.isEmpty() && ref.isEmpty();
    }

    /** The node part of {@code ref}, split at the last {@code /}. */
    public String node() {
        int slash = ref.lastIndexOf('/');
        return slash < 0 ? "" : ref.substring(0, slash);
    }

    /** The VMID part of {@code ref}; -1 when the ref does not end in a number. */
    public long vmid() {
        int slash = ref.lastIndexOf('/');
        try {
            return Long.parseLong(ref.substring(slash + 1));
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
