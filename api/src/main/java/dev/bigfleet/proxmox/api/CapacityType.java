package dev.bigfleet.proxmox.api;

import java.util.Locale;

/** How a machine's capacity is bought. Proxmox clones are always on demand. */
public enum CapacityType {
    BARE_METAL("BareMetal"),
    RESERVED("Reserved"),
    ON_DEMAND("OnDemand"),
    SPOT("Spot");

    private final String slotName;

    CapacityType(String slotName) {
        this.slotName = slotName;
    }

    /** The spelling used inside slot ids, e.g. {@code OnDemand}. */
    public String slotName() {
        return slotName;
    }

    /**
     * Parses an offering's {@code capacity_type}. Only on-demand capacity exists on Proxmox;
     * the other kinds are named so the error can say why they are refused.
     */
    public static CapacityType parseOffered(String value) {
        String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        switch (v) {
            case "":
            case "on_demand":
            case "on-demand":
            case "ondemand":
                return ON_DEMAND;
            case "spot":
                throw new IllegalArgumentException(
                        "capacity_type \"spot\" is not offered: Proxmox has no preemption market");
            case "reserved":
                throw new IllegalArgumentException(
                        "capacity_type \"reserved\" is not offered: Proxmox has no reservation billing");
            case "bare_metal":
            case "bare-metal":
            case "metal":
                throw new IllegalArgumentException(
                        "capacity_type \"" + value + "\" is not offered: the machines are deletable VM clones");
            default:
                throw new IllegalArgumentException("unknown capacity_type \"" + value + "\"");
        }
    }

    public static CapacityType fromSlotName(String name) {
        for (CapacityType type : values()) {
            if (type.slotName.equals(name)) {
                return type;
            }
        }
        throw new IllegalArgumentException("unknown capacity name \"" + name + "\"");
    }
}
