package dev.bigfleet.proxmox.backend.proxmox;

import java.util.Objects;

/**
 * A PCI device an instance type passes through, by cluster resource mapping ({@code hostpciN:
 * mapping=NAME[,pcie=1]}): Proxmox picks, when the VM starts, a free device of the mapping on the
 * VM's node. {@code pcie} needs the q35 machine type, which the clone is then given.
 */
record PciDevice(String mapping, boolean pcie) {
    /** A mapping id as pve-cluster's {@code pve-configid} allows it. */
    static final String ID = "[A-Za-z][A-Za-z0-9_-]*";

    PciDevice {
        Objects.requireNonNull(mapping, "mapping");
    }

    /** The {@code hostpciN} value. */
    String render() {
        return "mapping=" + mapping + (pcie ? ",pcie=1" : "");
    }
}
