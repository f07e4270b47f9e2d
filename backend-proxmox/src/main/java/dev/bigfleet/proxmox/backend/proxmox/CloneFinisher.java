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
import java.util.List;
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
    private final AddressAllocator addresses;
    private final TemplateDigests templates;

    CloneFinisher(
            PveClient api,
            Markers markers,
            ManagedInventory inventory,
            TaskWaiter tasks,
            PowerControl power,
            AgentWaiter agent,
            CloneLocator locator,
            AddressAllocator addresses,
            TemplateDigests templates) {
        this.api = api;
        this.markers = markers;
        this.inventory = inventory;
        this.tasks = tasks;
        this.power = power;
        this.agent = agent;
        this.locator = locator;
        this.addresses = addresses;
        this.templates = templates;
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
        List<StaticAddress> given = pickAddresses(spec.machineId(), vmid, p);
        p.ifPresent(x -> templates.readNow(x.template()));
        VmSettings settings = settings(spec, p, context.operationId(), given);
        String node = spec.zone();
        try {
            api.updateConfig(node, vmid, settings);
        } catch (PveApiException e) {
            if (!e.vmMissing()) {
                addresses.release(spec.machineId());
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
        List<StaticAddress> kept = confirmAddresses(node, vmid, spec, p, context.operationId(), given);
        VmSettings written = kept.equals(given) ? settings : settings(spec, p, context.operationId(), kept);
        inventory.remember(
                vmid,
                written.tags(),
                VmDescription.parse(Optional.of(written.description())).orElseThrow());
        grow(node, vmid, p, Optional.empty(), context);
        allocate(node, vmid, p, Optional.empty(), context);
        return node;
    }

    /** Static addresses for the type's NICs that have a pool, from what the cluster's VMs carry. */
    List<StaticAddress> pickAddresses(String machineId, long vmid, Optional<Placement> p) throws BackendException {
        if (p.isEmpty()
                || p.get().shape().networks().stream()
                        .noneMatch(n -> n.addresses().isPresent())) {
            return List.of();
        }
        return addresses.pick(machineId, vmid, p.get().shape().networks(), takenAddresses());
    }

    /** The static addresses each VM of the cluster carries as tags, from one listing. */
    private Map<Long, java.util.Set<String>> takenAddresses() throws BackendException {
        try {
            return AddressAllocator.taken(api.vmResources());
        } catch (PveApiException e) {
            throw new BackendException("list the cluster's VMs for the addresses they hold: " + e.getMessage(), e);
        }
    }

    /** Keeps the addresses an adopted VM already carries for its machine. */
    void keepAddresses(String machineId, List<StaticAddress> given) {
        addresses.keep(machineId, given);
    }

    /**
     * After the clone's addresses are written: when another VM turned out to carry one of them too
     * (another process picked it at the same moment), picks them anew and writes them again, a few
     * times at most. Returns the addresses the clone keeps.
     */
    List<StaticAddress> confirmAddresses(
            String node,
            long vmid,
            CloneSpec spec,
            Optional<Placement> p,
            String operationId,
            List<StaticAddress> given)
            throws BackendException {
        List<StaticAddress> current = given;
        for (int attempt = 0; !current.isEmpty(); attempt++) {
            Map<Long, java.util.Set<String>> taken = takenAddresses();
            java.util.Set<String> clash = AddressAllocator.conflicts(current, vmid, taken);
            if (clash.isEmpty()) {
                return current;
            }
            if (attempt == 3) {
                throw new BackendException("VM " + node + "/" + vmid + ": other VMs keep taking the addresses picked"
                        + " for it (" + String.join(", ", clash) + ")");
            }
            current = addresses.pick(
                    spec.machineId(), vmid, p.orElseThrow().shape().networks(), taken);
            write(node, vmid, settings(spec, p, operationId, current));
        }
        return current;
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

    VmSettings settings(CloneSpec spec, Optional<Placement> p, String operationId, List<StaticAddress> given) {
        Map<String, String> extra = new java.util.LinkedHashMap<>(
                p.map(x -> extra(x.shape(), x.template())).orElse(Map.of()));
        if (p.isPresent() && p.get().template().hasCloudInitDrive()) {
            extra.putAll(ipconfig(given));
        }
        return new VmSettings(
                spec.instanceType().vcpu(),
                spec.instanceType().memoryMib(),
                AddressAllocator.tagged(
                        p.map(x -> x.shape().withUserTags(markers.tagsFor(spec.machineId())))
                                .orElse(markers.tagsFor(spec.machineId())),
                        given),
                markers.description(spec.machineId(), operationId)
                        .withAddresses(given)
                        .withTemplate(p.flatMap(x -> templates.known(x.template())))
                        .render(),
                true,
                p.flatMap(x -> x.shape().net0(x.template())),
                p.flatMap(x -> x.shape().cpuType()),
                extra);
    }

    /**
     * Proxmox's cloud-init settings for a template's cloud-init drive: {@code ipconfig<N>} per
     * static address and the DNS servers ({@code nameserver}, one list for the VM: the first NIC's
     * that has any).
     */
    static Map<String, String> ipconfig(List<StaticAddress> given) {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        for (StaticAddress a : given) {
            out.put("ipconfig" + a.nic().substring(3), a.ipconfig());
        }
        given.stream()
                .filter(a -> !a.dns().isEmpty())
                .findFirst()
                .ifPresent(a -> out.put("nameserver", String.join(" ", a.dns())));
        return out;
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
