package dev.bigfleet.proxmox.engine;

import dev.bigfleet.proxmox.api.HostRef;
import dev.bigfleet.proxmox.api.InstanceType;
import dev.bigfleet.proxmox.api.InstanceTypeCatalog;
import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.api.MachineState;
import dev.bigfleet.proxmox.api.Offering;
import dev.bigfleet.proxmox.api.Offerings;
import dev.bigfleet.proxmox.api.PriceList;
import dev.bigfleet.proxmox.api.SlotId;
import dev.bigfleet.proxmox.api.SlotMachineId;
import dev.bigfleet.proxmox.spi.ManagedVm;
import dev.bigfleet.proxmox.spi.VmBinding;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Turns offerings plus the VMs the backend reports into machines: slots that own a VM are Idle
 * with its host, and VMs whose machine id matches no slot (an offering shrank) keep their id. A slot
 * is held by its newest machine ({@link SlotMachineId}): its first has the slot's id, one that
 * follows a FAILED machine a new id.
 */
@Singleton
public final class InventorySeeder implements OfferedSlots {
    /**
     * The one shard metadata entry of a machine rebuilt from a VM that kept only the digest of its
     * metadata (too large for the VM's description): the SHA-256 of the metadata, hex.
     */
    public static final String METADATA_DIGEST_KEY = "bigfleet-proxmox/shard-metadata-sha256";

    private final String providerLabel;
    private final List<Offering> offerings;
    private final InstanceTypeCatalog catalog;
    private final PriceList prices;
    private volatile List<Machine> slots;
    private volatile Map<String, Machine> slotsById;

    @Inject
    public InventorySeeder(InventoryPlan plan) {
        this.providerLabel = plan.providerLabel();
        this.offerings = plan.offerings();
        this.catalog = plan.catalog();
        this.prices = plan.prices();
    }

    /** Every configured slot, Speculative, in offering order. */
    public List<Machine> slots() {
        // offerings do not change while the process runs: render once, not on every reconcile pass
        List<Machine> rendered = slots;
        if (rendered == null) {
            rendered = List.copyOf(Offerings.renderSlots(providerLabel, offerings, catalog, prices));
            slots = rendered;
        }
        return rendered;
    }

    /** The configured slots by id. */
    public Map<String, Machine> slotsById() {
        Map<String, Machine> byId = slotsById;
        if (byId == null) {
            Map<String, Machine> built = new LinkedHashMap<>();
            slots().forEach(slot -> built.put(slot.id(), slot));
            byId = java.util.Collections.unmodifiableMap(built);
            slotsById = byId;
        }
        return byId;
    }

    @Override
    public boolean offers(String slotId) {
        return slotsById().containsKey(slotId);
    }

    /** The slot whose machine {@code machineId} is, as the offerings render it. */
    public Optional<Machine> slotOf(String machineId) {
        Map<String, Machine> byId = slotsById();
        Machine slot = byId.get(machineId);
        return slot != null
                ? Optional.of(slot)
                : SlotMachineId.slotOf(machineId).map(byId::get);
    }

    /** The slots none of whose machines is among {@code knownIds}, each as its first machine. */
    public List<Machine> unheld(Collection<String> knownIds) {
        Set<String> held = new HashSet<>();
        for (String id : knownIds) {
            SlotMachineId.slotOf(id).ifPresent(held::add);
        }
        return slots().stream().filter(slot -> !held.contains(slot.id())).toList();
    }

    /** The inventory implied by the slots and the managed VMs found on the substrate, when nothing is known. */
    public List<Machine> inventory(List<ManagedVm> vms) {
        return inventory(vms, Set.of());
    }

    /**
     * The inventory implied by the slots, the managed VMs found on the substrate and the machines
     * already known ({@code knownIds}): each slot under the id of its newest machine among both, on
     * that machine's VM if it has one. A VM of a machine that a newer one of its slot superseded is
     * left out unless that machine is known: a machine that left the inventory never comes back.
     */
    public List<Machine> inventory(List<ManagedVm> vms, Set<String> knownIds) {
        Map<String, Machine> byId = slotsById();
        List<Machine> out = new ArrayList<>();
        Map<String, ManagedVm> vmByMachine = new LinkedHashMap<>();
        for (ManagedVm vm : vms) {
            vm.machineId().ifPresent(id -> vmByMachine.putIfAbsent(id, vm));
        }
        SlotHolders holders = SlotHolders.of(knownIds);
        vmByMachine.keySet().forEach(holders::add);
        Set<String> holding = new HashSet<>();
        for (Machine slot : byId.values()) {
            String holder = holders.holderOf(slot.id());
            Machine machine = holder.equals(slot.id())
                    ? slot
                    : slot.toBuilder().id(holder).build();
            ManagedVm vm = vmByMachine.get(holder);
            out.add(vm == null ? machine : onVm(machine, vm));
            holding.add(holder);
        }
        for (Map.Entry<String, ManagedVm> e : vmByMachine.entrySet()) {
            String id = e.getKey();
            if (holding.contains(id)) {
                continue;
            }
            boolean superseded =
                    SlotMachineId.parse(id).map(holders::isSuperseded).orElse(false);
            if (!superseded || knownIds.contains(id)) {
                out.add(unslotted(id, e.getValue()));
            }
        }
        return out;
    }

    /** A VM that carries a machine id no offering renders: kept as Idle under that id. */
    private Machine unslotted(String id, ManagedVm vm) {
        Optional<SlotId.Parts> parts = SlotMachineId.slotOf(id)
                .flatMap(SlotId::parse)
                .filter(p -> p.provider().equals(providerLabel) && catalog.contains(p.instanceType()));
        String type = parts.map(SlotId.Parts::instanceType).orElseGet(() -> typeOnNode(vm.node()));
        Map<String, String> resources = offerings.stream()
                .filter(o -> o.instanceType().equals(type) && o.zone().equals(vm.node()))
                .findFirst()
                .map(Offering::resources)
                .orElse(Map.of());
        return onVm(
                Machine.builder(id)
                        .instanceType(type)
                        .zone(vm.node())
                        .pricePerHour(prices.priceOf(type, catalog))
                        .resources(resources)
                        .allocatable(catalog.find(type)
                                .map(InstanceType::allocatable)
                                .orElse(Map.of()))
                        .build(),
                vm);
    }

    /**
     * {@code machine} as its VM says it is: on the VM's host, CONFIGURED in the cluster the VM is
     * bound to (with its shard metadata, or {@link #METADATA_DIGEST_KEY} when only a digest was kept),
     * else IDLE.
     */
    Machine onVm(Machine machine, ManagedVm vm) {
        Machine.Builder b = machine.toBuilder().host(HostRef.of(providerLabel, vm.node(), vm.vmid()));
        if (vm.binding().isEmpty()) {
            return b.state(MachineState.IDLE)
                    .cluster("")
                    .shardMetadata(Map.of())
                    .build();
        }
        VmBinding binding = vm.binding().get();
        return b.state(MachineState.CONFIGURED)
                .cluster(binding.clusterId())
                .shardMetadata(binding.metadataDigest()
                        .map(digest -> Map.of(METADATA_DIGEST_KEY, digest))
                        .orElse(binding.shardMetadata()))
                .build();
    }

    private String typeOnNode(String node) {
        return offerings.stream()
                .filter(o -> o.zone().equals(node))
                .findFirst()
                .or(() -> offerings.stream().findFirst())
                .map(Offering::instanceType)
                .orElse(catalog.names().get(0));
    }
}
