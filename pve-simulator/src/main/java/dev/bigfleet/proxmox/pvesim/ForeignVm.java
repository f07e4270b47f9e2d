package dev.bigfleet.proxmox.pvesim;

import java.util.Objects;

/**
 * A VM made by someone else than the client under test (another provider, an operator): not a
 * template, with whatever name, tags and description. Null name/tags/description mean unset.
 */
public record ForeignVm(
        int vmid, String node, String name, String tags, String description, PowerState power, String pool) {

    public ForeignVm {
        if (vmid < 100 || vmid > 999_999_999) {
            throw new IllegalArgumentException("vmid " + vmid + " is outside 100..999999999");
        }
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(power, "power");
    }

    /** A stopped VM named {@code foreign-<vmid>} without tags or description. */
    public static ForeignVm of(int vmid, String node) {
        return new ForeignVm(vmid, node, "foreign-" + vmid, null, null, PowerState.STOPPED, null);
    }

    public ForeignVm withName(String n) {
        return new ForeignVm(vmid, node, n, tags, description, power, pool);
    }

    public ForeignVm withTags(String t) {
        return new ForeignVm(vmid, node, name, t, description, power, pool);
    }

    public ForeignVm withDescription(String d) {
        return new ForeignVm(vmid, node, name, tags, d, power, pool);
    }

    public ForeignVm withPower(PowerState p) {
        return new ForeignVm(vmid, node, name, tags, description, p, pool);
    }

    public ForeignVm inPool(String p) {
        return new ForeignVm(vmid, node, name, tags, description, power, p);
    }
}
