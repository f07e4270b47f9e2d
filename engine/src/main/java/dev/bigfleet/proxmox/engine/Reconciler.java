package dev.bigfleet.proxmox.engine;

import dev.bigfleet.proxmox.api.HostRef;
import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.api.MachineState;
import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.ManagedVm;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.spi.VmTarget;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings the inventory in line with the substrate: adds machines for managed VMs the engine does
 * not know, refreshes facts that come from configuration, fails Idle or Configured machines whose
 * VM has vanished and releases the host of FAILED ones whose VM has (on two consecutive passes, so
 * one odd listing is not enough), and destroys VMs that no machine owns (or whose machine is
 * Speculative) once they have been orphans for the grace period; the VM of a FAILED machine is left
 * to its cleanup. A pass that changes nothing bumps no revision.
 */
@Singleton
public final class Reconciler {
    private static final Logger log = LoggerFactory.getLogger(Reconciler.class);

    private final LifecycleEngine engine;
    private final ProxmoxBackend backend;
    private final InventorySeeder seeder;
    private final OrphanPolicy orphans;
    private final EngineObserver observer;
    private final ClusterRebuild rebuild;
    /** Machine id → consecutive passes its VM was missing. Only the reconcile thread touches these. */
    private final Map<String, Integer> missingPasses = new HashMap<>();
    /** VMID → when it was first seen without a live owner. */
    private final Map<Long, Instant> orphanSince = new HashMap<>();

    @Inject
    public Reconciler(
            LifecycleEngine engine,
            ProxmoxBackend backend,
            InventorySeeder seeder,
            OrphanPolicy orphans,
            EngineObserver observer,
            ClusterRebuild rebuild) {
        this.engine = engine;
        this.backend = backend;
        this.seeder = seeder;
        this.orphans = orphans;
        this.observer = observer;
        this.rebuild = rebuild;
    }

    /** Outcome of one pass. */
    public record Pass(int added, int refreshed, int failedMissing, int hostsReleased, int reaped) {}

    public Pass runOnce() throws BackendException, StoreFailure {
        List<ManagedVm> vms = backend.describeManaged();
        if (rebuild.pending()) {
            rebuild.apply(vms);
        }
        List<Machine> wanted = seeder.inventory(vms, engine.ids());
        List<Machine> unknown = new ArrayList<>();
        int refreshed = 0;
        for (Machine m : wanted) {
            Optional<Machine> known = engine.get(m.id());
            if (known.isEmpty()) {
                unknown.add(m);
                continue;
            }
            Machine slot = seeder.slotOf(m.id()).orElse(null);
            if (slot != null
                    && !hasFactsOf(known.get(), slot)
                    && engine.refreshFacts(
                            m.id(),
                            current -> current.toBuilder()
                                    .pricePerHour(slot.pricePerHour())
                                    .resources(slot.resources())
                                    .allocatable(
                                            current.allocatable().isEmpty()
                                                    ? slot.allocatable()
                                                    : current.allocatable())
                                    .labels(slot.labels())
                                    .build())) {
                refreshed++;
            }
        }
        refreshed += followMovedVms(vms);
        int added = engine.addMachines(unknown);
        int[] lost = actOnLostVms(vms);
        int reaped = reapOrphans(vms);
        if (added > 0 || refreshed > 0 || lost[0] > 0 || lost[1] > 0 || reaped > 0) {
            log.info(
                    "reconcile: added={} refreshed={} failed_missing_vm={} hosts_released={} orphans_reaped={}",
                    added,
                    refreshed,
                    lost[0],
                    lost[1],
                    reaped);
        }
        return new Pass(added, refreshed, lost[0], lost[1], reaped);
    }

    /**
     * A VM keeps its VMID when it is migrated (by hand or by HA): a machine whose VM is now on
     * another node takes that node as its host, so that the shard, the admin page and every later
     * action see where it is. Its zone stays its offering's node.
     *
     * @return how many machines were moved
     */
    private int followMovedVms(List<ManagedVm> vms) throws StoreFailure {
        int moved = 0;
        for (ManagedVm vm : vms) {
            if (vm.machineId().isEmpty()) {
                continue;
            }
            Optional<Machine> known = engine.get(vm.machineId().get());
            if (known.isEmpty()
                    || known.get().host().isEmpty()
                    || known.get().host().vmid() != vm.vmid()
                    || known.get().host().node().equals(vm.node())) {
                continue;
            }
            Machine m = known.get();
            HostRef now = HostRef.of(m.host().provider(), vm.node(), vm.vmid());
            if (engine.refreshFacts(
                    m.id(),
                    current -> current.host().vmid() == vm.vmid()
                            ? current.toBuilder().host(now).build()
                            : current)) {
                log.info(
                        "machine {}: its VM {} moved from node {} to {}",
                        m.id(),
                        vm.vmid(),
                        m.host().node(),
                        vm.node());
                moved++;
            }
        }
        return moved;
    }

    /** The common case, checked without taking the machine's lock: nothing to refresh. */
    private static boolean hasFactsOf(Machine current, Machine slot) {
        return current.pricePerHour() == slot.pricePerHour()
                && current.resources().equals(slot.resources())
                && current.labels().equals(slot.labels())
                && !current.allocatable().isEmpty();
    }

    /**
     * Machines whose VM was missing on two consecutive passes: an Idle or Configured one goes FAILED
     * naming its host; a FAILED one stops claiming the host.
     *
     * @return {failed, hosts released}
     */
    private int[] actOnLostVms(List<ManagedVm> vms) throws StoreFailure {
        Set<String> withVm = new HashSet<>();
        vms.forEach(vm -> vm.machineId().ifPresent(withVm::add));
        int[] acted = new int[2];
        for (Machine m : engine.snapshot()) {
            boolean stable = m.state() == MachineState.IDLE || m.state() == MachineState.CONFIGURED;
            boolean claims =
                    (stable || m.state() == MachineState.FAILED) && !m.host().isEmpty();
            if (!claims || withVm.contains(m.id())) {
                missingPasses.remove(m.id());
                continue;
            }
            int passes = missingPasses.merge(m.id(), 1, Integer::sum);
            if (passes < 2) {
                continue;
            }
            if (stable
                    && engine.failIfUnchanged(
                            m,
                            "VM " + m.host().ref() + " is gone: it was missing on two consecutive reconcile passes")) {
                missingPasses.remove(m.id());
                acted[0]++;
            } else if (!stable && engine.releaseLostHost(m)) {
                missingPasses.remove(m.id());
                acted[1]++;
            }
        }
        return acted;
    }

    private int reapOrphans(List<ManagedVm> vms) {
        Instant now = Instant.now();
        Set<Long> seen = new HashSet<>();
        int reaped = 0;
        for (ManagedVm vm : vms) {
            seen.add(vm.vmid());
            Optional<Machine> owner = vm.machineId().flatMap(engine::get);
            // a FAILED machine's VM may be a live node: its cleanup, not the reaper, decides about it
            boolean orphan = owner.isEmpty() || owner.get().state() == MachineState.SPECULATIVE;
            if (orphan && vm.binding().isPresent()) {
                // a VM bound to a cluster may be a serving node: never destroyed without its drain
                if (orphanSince.putIfAbsent(vm.vmid(), now) == null) {
                    log.warn(
                            "VM {} is bound to cluster {} but {}: left alone, a bound VM is never destroyed without its drain;"
                                    + " a restart of the provider adopts it",
                            vm.hostRef(),
                            vm.binding().get().clusterId(),
                            owner.map(o -> "its machine " + o.id() + " is " + o.state())
                                    .orElse("no machine owns it"));
                }
                continue;
            }
            if (!orphan) {
                orphanSince.remove(vm.vmid());
                continue;
            }
            Instant since = orphanSince.computeIfAbsent(vm.vmid(), k -> now);
            if (Duration.between(since, now).compareTo(orphans.grace()) < 0) {
                continue;
            }
            String why =
                    owner.map(o -> "its machine " + o.id() + " is " + o.state()).orElse("it carries no machine id");
            if (!orphans.reap()) {
                log.warn("orphan VM {} ({}) would be destroyed; --reap-orphans=false", vm.hostRef(), why);
                continue;
            }
            try {
                backend.destroy(
                        new VmTarget(vm.machineId().orElse(""), vm.node(), vm.vmid()),
                        new TransitionContext(
                                vm.machineId().orElse(""), "reap-" + vm.vmid(), now.plus(orphans.destroyTimeout())));
                log.warn("destroyed orphan VM {} ({})", vm.hostRef(), why);
                orphanSince.remove(vm.vmid());
                reaped++;
            } catch (BackendException e) {
                log.warn("destroying orphan VM {} failed: {}", vm.hostRef(), e.getMessage());
            }
        }
        orphanSince.keySet().retainAll(seen);
        if (reaped > 0) {
            observer.orphansReaped(reaped);
        }
        return reaped;
    }
}
