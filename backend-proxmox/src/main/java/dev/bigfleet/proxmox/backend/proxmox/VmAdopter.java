package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.backend.proxmox.client.ClusterResource;
import dev.bigfleet.proxmox.backend.proxmox.client.VmConfig;
import dev.bigfleet.proxmox.backend.proxmox.client.VmSettings;
import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.CloneSpec;
import dev.bigfleet.proxmox.spi.CreatedVm;
import dev.bigfleet.proxmox.spi.OperationContext;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Create that finds its machine's VM already there (a retry, or an answer that was lost) takes it
 * over instead of cloning again: it waits for its clone to finish, restores what an earlier attempt
 * did not get to write (size, markers, agent, NIC, CPU model, disk size, new drives) and brings it up.
 */
final class VmAdopter {
    private static final Logger log = LoggerFactory.getLogger(VmAdopter.class);

    private final Markers markers;
    private final ManagedInventory inventory;
    private final CloneJournal journal;
    private final CloneLocator locator;
    private final CloneFinisher finisher;
    private final PowerControl power;

    VmAdopter(
            Markers markers,
            ManagedInventory inventory,
            CloneJournal journal,
            CloneLocator locator,
            CloneFinisher finisher,
            PowerControl power) {
        this.markers = markers;
        this.inventory = inventory;
        this.journal = journal;
        this.locator = locator;
        this.finisher = finisher;
        this.power = power;
    }

    /**
     * A VM already carrying this machine's description, or a clone of ours for it still in flight
     * (listed with its lock, or, for a pool-scoped token, not listed yet but holding its VMID).
     */
    Optional<Long> findOwn(CloneSpec spec, List<ClusterResource> listed) throws BackendException {
        String machineId = spec.machineId();
        String tag = markers.machineTag(machineId);
        String name = Markers.vmName(spec.instanceType().name(), machineId);
        Set<Long> journaled = journal.vmids(machineId);
        for (ClusterResource r : listed) {
            if (!r.isQemu() || r.isTemplate()) {
                continue;
            }
            boolean inFlight = journaled.contains(r.vmid());
            boolean candidate = inFlight
                    || r.tags().contains(tag)
                    || r.name().equals(Optional.of(name))
                    || inventory.knownMachine(r.vmid()).equals(Optional.of(machineId));
            if (!candidate) {
                continue;
            }
            if (inFlight && r.lock().filter("clone"::equals).isPresent()) {
                return Optional.of(r.vmid());
            }
            Optional<VmIdentity> identity = inventory.identify(r);
            if (identity.flatMap(VmIdentity::description)
                    .filter(d -> d.belongsTo(markers.providerLabel(), machineId))
                    .isPresent()) {
                return Optional.of(r.vmid());
            }
        }
        for (long vmid : journaled) {
            boolean listedNow = listed.stream().anyMatch(r -> r.vmid() == vmid);
            if (!listedNow && locator.locate(vmid).isPresent()) {
                return Optional.of(vmid);
            }
        }
        return Optional.empty();
    }

    /** @return empty when the VM turned out not to be the machine's after all (or vanished) */
    Optional<CreatedVm> adopt(CloneSpec spec, long vmid, Optional<Placement> p, OperationContext context)
            throws BackendException {
        Optional<CloneLocator.Located> settled = locator.awaitUnlocked(vmid, spec.machineId(), context);
        if (settled.isEmpty()) {
            journal.settle(spec.machineId());
            return Optional.empty();
        }
        String node = settled.get().node();
        VmConfig config = settled.get().config().orElseThrow();
        Optional<VmDescription> described = VmDescription.parse(config.description());
        List<StaticAddress> addresses = described.map(VmDescription::addresses).orElse(List.of());
        if (addresses.isEmpty()) {
            addresses = finisher.pickAddresses(spec.machineId(), vmid, p);
        } else {
            finisher.keepAddresses(spec.machineId(), addresses);
        }
        String operationId = described.map(VmDescription::operationId).orElse("");
        VmSettings wanted = finisher.settings(spec, p, operationId, addresses);
        if (config.cores() != wanted.cores()
                || config.memoryMib() != wanted.memoryMib()
                || !config.agentEnabled()
                || !config.tags().contains(markers.providerTag())
                || !config.tags().contains(markers.machineTag(spec.machineId()))
                || !addresses.stream().allMatch(a -> config.tags().contains(a.tag()))
                || !p.map(x -> x.shape().userTags()).orElse(List.of()).stream().allMatch(config.tags()::contains)
                || !wanted.cpu().equals(wanted.cpu().flatMap(c -> config.entry("cpu")))
                || !sameNic(wanted.net0(), config.entry("net0"))
                || !wanted.extra().entrySet().stream()
                        .filter(e -> e.getKey().matches("net\\d+"))
                        .allMatch(e -> sameNic(Optional.of(e.getValue()), config.entry(e.getKey())))) {
            finisher.write(node, vmid, wanted);
        }
        List<StaticAddress> kept = finisher.confirmAddresses(node, vmid, spec, p, operationId, addresses);
        if (!kept.equals(addresses)) {
            wanted = finisher.settings(spec, p, operationId, kept);
        }
        finisher.grow(node, vmid, p, Optional.of(config), context);
        finisher.allocate(node, vmid, p, Optional.of(config), context);
        inventory.remember(
                vmid,
                wanted.tags(),
                VmDescription.parse(Optional.of(wanted.description())).orElseThrow());
        if (p.isEmpty() || !p.get().bootstrap().nocloud()) {
            power.ensureUp(node, vmid, context);
        }
        journal.settle(spec.machineId());
        log.info("adopted VM {}/{} for machine {}", node, vmid, spec.machineId());
        return Optional.of(new CreatedVm(node, vmid));
    }

    /** Whether the clone's NIC is already as wanted: model, bridge, VLAN and options (its MAC does not matter). */
    private static boolean sameNic(Optional<String> wanted, Optional<String> actual) {
        if (wanted.isEmpty()) {
            return true;
        }
        return NicSpec.parse(wanted.get()).equals(actual.flatMap(NicSpec::parse));
    }
}
