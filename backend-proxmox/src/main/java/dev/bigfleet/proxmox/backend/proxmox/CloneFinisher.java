package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.backend.proxmox.client.PveApiException;
import dev.bigfleet.proxmox.backend.proxmox.client.PveClient;
import dev.bigfleet.proxmox.backend.proxmox.client.TaskStatus;
import dev.bigfleet.proxmox.backend.proxmox.client.Upid;
import dev.bigfleet.proxmox.backend.proxmox.client.VmConfig;
import dev.bigfleet.proxmox.backend.proxmox.client.VmSettings;
import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.CloneSpec;
import dev.bigfleet.proxmox.spi.OperationContext;
import java.util.Map;
import java.util.Optional;

/**
 * Gives a clone its shape before the first start: one config write (cores, memory, markers, the
 * agent, and the type's NIC and CPU model), the boot disk grown to the type's size (a {@code
 * resize} task, never a shrink), the type's new drives allocated (a config task), then starts it and waits for its guest agent (a NoCloud type's clone
 * stays stopped until its Configure).
 */
final class CloneFinisher {
    private final PveClient api;
    private final Markers markers;
    private final ManagedInventory inventory;
    private final TaskWaiter tasks;
    private final PowerControl power;
    private final AgentWaiter agent;
    private final CloneLocator locator;

    CloneFinisher(
            PveClient api,
            Markers markers,
            ManagedInventory inventory,
            TaskWaiter tasks,
            PowerControl power,
            AgentWaiter agent,
            CloneLocator locator) {
        this.api = api;
        this.markers = markers;
        this.inventory = inventory;
        this.tasks = tasks;
        this.power = power;
        this.agent = agent;
        this.locator = locator;
    }

    /**
     * Shapes, starts and waits for the clone; returns the node it is on. A clone of a type whose
     * bootstrap is a NoCloud seed is only shaped: its first boot must find the seed Configure attaches.
     */
    String finish(CloneSpec spec, Optional<Placement> p, long vmid, OperationContext context) throws BackendException {
        String node = shape(spec, p, vmid, context);
        if (p.isPresent() && p.get().bootstrap().nocloud()) {
            return node;
        }
        power.start(node, vmid, context);
        agent.await(node, vmid, context);
        return node;
    }

    /** The clone's config written and its boot disk grown, not started; returns the node it is on. */
    String shape(CloneSpec spec, Optional<Placement> p, long vmid, OperationContext context) throws BackendException {
        VmSettings settings = settings(spec, p, context.operationId());
        String node = spec.zone();
        try {
            api.updateConfig(node, vmid, settings);
        } catch (PveApiException e) {
            if (!e.vmMissing()) {
                throw new BackendException("configure clone " + node + "/" + vmid + ": " + e.getMessage(), e);
            }
            // not where the clone was aimed (HA moved it): find it
            node = locator.locate(vmid)
                    .map(CloneLocator.Located::node)
                    .filter(n -> !n.isEmpty())
                    .orElseThrow(() -> new BackendException(
                            "configure clone " + spec.zone() + "/" + vmid + ": the clone vanished"));
            write(node, vmid, settings);
        }
        inventory.remember(vmid, settings.tags(), markers.description(spec.machineId(), context.operationId()));
        grow(node, vmid, p, Optional.empty(), context);
        allocate(node, vmid, p, Optional.empty(), context);
        return node;
    }

    /**
     * Grows the boot disk to the type's {@code disk_gib} when it is smaller.
     *
     * @param current the clone's config when known (adoption); else the template's size is assumed
     */
    void grow(String node, long vmid, Optional<Placement> p, Optional<VmConfig> current, OperationContext context)
            throws BackendException {
        if (p.isEmpty() || p.get().shape().diskGib().isEmpty()) {
            return;
        }
        Optional<TemplateDisk> boot = p.get().template().bootDisk();
        if (boot.isEmpty()) {
            return;
        }
        String key = boot.get().key();
        long size = current.flatMap(c -> c.entry(key))
                .flatMap(v -> TemplateDisk.parse(key, v))
                .map(TemplateDisk::sizeBytes)
                .orElse(boot.get().sizeBytes());
        long gib = p.get().shape().diskGib().getAsLong();
        if (gib << 30 <= size) {
            return;
        }
        String what = "grow disk " + boot.get().key() + " of VM " + node + "/" + vmid + " to " + gib + " GiB";
        Upid upid;
        try {
            upid = api.resize(node, vmid, boot.get().key(), gib);
        } catch (PveApiException e) {
            throw new BackendException(what + ": " + e.getMessage(), e);
        }
        TaskStatus status = tasks.await(upid, what, context);
        if (!status.succeeded()) {
            throw new BackendException(what + ": task failed: " + status.failure());
        }
    }

    /**
     * Has Proxmox allocate the drives the type adds ({@code disks}, {@code efi_storage}, {@code
     * tpm}) that the clone does not have yet, in one config task.
     *
     * @param current the clone's config when known (adoption); else none of them is there yet
     */
    void allocate(String node, long vmid, Optional<Placement> p, Optional<VmConfig> current, OperationContext context)
            throws BackendException {
        if (p.isEmpty()) {
            return;
        }
        Map<String, String> missing =
                new java.util.LinkedHashMap<>(p.get().shape().newDrives(p.get().template()));
        current.ifPresent(c -> missing.keySet().removeIf(k -> c.entry(k).isPresent()));
        if (missing.isEmpty()) {
            return;
        }
        String what = "allocate " + String.join(", ", missing.keySet()) + " (the type's " + driveKeys(missing)
                + ") on VM " + node + "/" + vmid;
        Upid upid;
        try {
            upid = api.allocateDrives(node, vmid, missing);
        } catch (PveApiException e) {
            throw new BackendException(what + ": " + e.getMessage(), e);
        }
        TaskStatus status = tasks.await(upid, what, context);
        if (!status.succeeded()) {
            throw new BackendException(what + ": task failed: " + status.failure());
        }
    }

    /** The instance-type keys that asked for these drives. */
    private static String driveKeys(Map<String, String> drives) {
        java.util.List<String> keys = new java.util.ArrayList<>();
        if (drives.keySet().stream().anyMatch(k -> k.matches("(scsi|virtio)\\d+"))) {
            keys.add("disks");
        }
        if (drives.containsKey("efidisk0")) {
            keys.add("efi_storage");
        }
        if (drives.containsKey("tpmstate0")) {
            keys.add("tpm");
        }
        return String.join(", ", keys);
    }

    VmSettings settings(CloneSpec spec, Optional<Placement> p, String operationId) {
        return new VmSettings(
                spec.instanceType().vcpu(),
                spec.instanceType().memoryMib(),
                p.map(x -> x.shape().withUserTags(markers.tagsFor(spec.machineId())))
                        .orElse(markers.tagsFor(spec.machineId())),
                markers.description(spec.machineId(), operationId).render(),
                true,
                p.flatMap(x -> x.shape().net0(x.template())),
                p.flatMap(x -> x.shape().cpuType()),
                p.map(x -> extra(x.shape(), x.template())).orElse(Map.of()));
    }

    /**
     * The type's NICs after the first ({@code net1..N}), {@code hostpci0..N} for its PCI devices,
     * {@code machine: q35} when one is PCIe, and {@code numa} and {@code onboot} when it sets them.
     */
    static Map<String, String> extra(VmShape shape, Template template) {
        Map<String, String> out = new java.util.LinkedHashMap<>(shape.moreNics(template));
        shape.numa().ifPresent(on -> out.put("numa", on ? "1" : "0"));
        shape.onboot().ifPresent(on -> out.put("onboot", on ? "1" : "0"));
        shape.bios().ifPresent(b -> out.put("bios", b));
        for (int i = 0; i < shape.pci().size(); i++) {
            out.put("hostpci" + i, shape.pci().get(i).render());
        }
        if (shape.pci().stream().anyMatch(PciDevice::pcie)) {
            out.put("machine", "q35");
        }
        return out;
    }

    void write(String node, long vmid, VmSettings settings) throws BackendException {
        try {
            api.updateConfig(node, vmid, settings);
        } catch (PveApiException e) {
            throw new BackendException("configure clone " + node + "/" + vmid + ": " + e.getMessage(), e);
        }
    }
}
