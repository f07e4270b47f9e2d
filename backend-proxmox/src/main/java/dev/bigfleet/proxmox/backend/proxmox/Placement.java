package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.api.InstanceType;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * How a clone of an instance type is made for one node: from which template, full or linked, into
 * what shape, and how its guest gets its bootstrap. The clone runs on the template's node; {@code target=} is sent only when the
 * VM goes elsewhere, which the startup check allows only when every volume is on shared storage.
 */
record Placement(
        InstanceType type,
        String node,
        Template template,
        CloneMode mode,
        VmShape shape,
        Optional<String> cloneStorage,
        GuestBootstrap bootstrap) {

    /** The pool the clone joins: the type's, else {@code --proxmox-pool}, else none. */
    Optional<String> pool(Optional<String> global) {
        return shape.pool().or(() -> global);
    }

    /** The node that copies the disks: the template's. */
    String copyNode() {
        return template.node();
    }

    Optional<String> target() {
        return node.equals(template.node()) ? Optional.empty() : Optional.of(node);
    }

    boolean full() {
        return mode == CloneMode.FULL;
    }

    /**
     * What the clone writes, per storage: a full clone its disks (the boot disk at its grown size)
     * on {@code --clone-storage} or the template's storage; a linked clone only the boot disk's
     * growth and its cloud-init drive, which Proxmox always copies.
     */
    Map<String, Long> writes() {
        Map<String, Long> out = new LinkedHashMap<>();
        Optional<String> boot = template.bootKey();
        for (TemplateDisk d : template.disks()) {
            if (d.cdrom() && !d.cloudinit()) {
                continue;
            }
            boolean isBoot = boot.equals(Optional.of(d.key()));
            long size = d.cloudinit() ? TemplateDisk.CLOUDINIT_BYTES : isBoot ? shape.bootDiskBytes(d) : d.sizeBytes();
            long bytes = full() || d.cloudinit() ? size : size - d.sizeBytes();
            String storage = full() || d.cloudinit() ? cloneStorage.orElse(d.storage()) : d.storage();
            if (bytes > 0) {
                out.merge(storage, bytes, Long::sum);
            }
        }
        return out;
    }
}
