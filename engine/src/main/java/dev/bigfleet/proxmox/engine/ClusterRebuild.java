package dev.bigfleet.proxmox.engine;

import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.api.MachineState;
import dev.bigfleet.proxmox.spi.ManagedVm;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings a store that lost or never saw changes back in line with the cluster, at startup, before
 * interrupted transitions are resumed: the VMs say which machine they are and, through their binding
 * ({@link dev.bigfleet.proxmox.spi.VmBinding}), which cluster they serve. The rule is that no machine
 * whose VM is bound is ever reported free:
 *
 * <ul>
 *   <li>a VM whose machine the store does not know, or holds as SPECULATIVE, is adopted: CONFIGURED
 *       in its cluster when bound, else IDLE;
 *   <li>an IDLE machine whose VM is bound becomes CONFIGURED; a CONFIGURED one takes the cluster its
 *       VM names; an IDLE or CONFIGURED one whose VM is elsewhere takes the VM's host;
 *   <li>a CREATING or DELETING machine whose VM is bound is an older copy of a configured machine: it
 *       becomes CONFIGURED, and the interrupted Create or Delete is not resumed;
 *   <li>a FAILED machine whose VM is bound has its cleanup drain first;
 *   <li>a CONFIGURED machine whose VM carries no binding stays CONFIGURED (bound is the safe reading:
 *       its VM may predate bindings); CONFIGURING and DRAINING machines are left to their resume,
 *       which handles a bound node.
 * </ul>
 *
 * <p>A machine whose VM is gone is not decided here: the reconciler fails it as it always did.
 */
@Singleton
public final class ClusterRebuild {
    private static final Logger log = LoggerFactory.getLogger(ClusterRebuild.class);

    /** One machine the rebuild looked at: what the store had, what it is now, and why. */
    public record Decision(String machineId, String host, String was, String as, String why) {}

    /** The last rebuild: when, and each decision (kept machines included). */
    public record Report(Instant at, List<Decision> decisions) {
        public Report {
            decisions = List.copyOf(decisions);
        }

        /** How many machines became {@code as} ({@code idle}, {@code configured}, {@code failed}, {@code kept}). */
        public long count(String as) {
            return decisions.stream().filter(d -> d.as().equals(as)).count();
        }
    }

    private final LifecycleEngine engine;
    private final InventorySeeder seeder;
    private final EngineObserver observer;
    private volatile Optional<Report> last = Optional.empty();
    private volatile boolean pending;

    @Inject
    public ClusterRebuild(LifecycleEngine engine, InventorySeeder seeder, EngineObserver observer) {
        this.engine = engine;
        this.seeder = seeder;
        this.observer = observer;
    }

    /** The report of the last rebuild that decided something; empty when none has. */
    public Optional<Report> lastReport() {
        return last;
    }

    /**
     * Records the machines a fresh store was seeded with from their VMs ({@link
     * InventorySeeder#inventory}): the store was empty beside VMs of this provider.
     */
    public Report seeded(List<Machine> seededMachines) {
        List<Decision> decisions = new ArrayList<>();
        for (Machine m : seededMachines) {
            if (!m.host().isEmpty()) {
                Decision d = new Decision(
                        m.id(),
                        m.host().ref(),
                        "unknown",
                        label(m.state()),
                        "the store was empty; its VM carries the machine id");
                log.info(
                        "machine {} on {} rebuilt from the cluster: {} ({})", d.machineId(), d.host(), d.as(), d.why());
                observer.machineRebuilt(d.as());
                decisions.add(d);
            }
        }
        Report report = new Report(Instant.now(), decisions);
        if (!decisions.isEmpty()) {
            last = Optional.of(report);
            log.warn(
                    "the store was empty beside {} VM(s) of this provider: rebuilt them (configured={} idle={})",
                    decisions.size(),
                    report.count("configured"),
                    report.count("idle"));
        }
        pending = false;
        return report;
    }

    /** The cluster could not be read at startup: the reconciler's first pass that reads it rebuilds. */
    public void postpone() {
        pending = true;
    }

    /** Whether a rebuild waits for the cluster to answer. */
    public boolean pending() {
        return pending;
    }

    /** Applies the rules above to every VM of {@code vms} that carries a machine id. */
    public Report apply(List<ManagedVm> vms) throws StoreFailure {
        Map<String, Set<Long>> vmidsByMachine = new HashMap<>();
        vms.forEach(vm -> vm.machineId()
                .ifPresent(id ->
                        vmidsByMachine.computeIfAbsent(id, k -> new HashSet<>()).add(vm.vmid())));
        List<Decision> decisions = new ArrayList<>();
        for (Machine wanted : seeder.inventory(vms, engine.ids())) {
            if (wanted.host().isEmpty()) {
                continue; // a slot no VM backs
            }
            Optional<Machine> known = engine.get(wanted.id());
            if (known.isEmpty()) {
                if (engine.addMachines(List.of(wanted)) > 0) {
                    decisions.add(
                            changed(wanted, "unknown", "its VM carries the machine id; the store did not know it"));
                }
                continue;
            }
            decide(known.get(), wanted, vmidsByMachine.getOrDefault(wanted.id(), Set.of()))
                    .ifPresent(decisions::add);
        }
        Report report = new Report(Instant.now(), decisions);
        pending = false;
        if (!decisions.isEmpty()) {
            last = Optional.of(report);
            log.warn(
                    "store and cluster disagreed: rebuilt {} machine(s) from their VMs (configured={} idle={} failed={}),"
                            + " kept {}",
                    decisions.size() - report.count("kept"),
                    report.count("configured"),
                    report.count("idle"),
                    report.count("failed"),
                    report.count("kept"));
        }
        return report;
    }

    private Optional<Decision> decide(Machine m, Machine wanted, Set<Long> vmids) throws StoreFailure {
        boolean bound = wanted.state() == MachineState.CONFIGURED;
        boolean elsewhere = m.host().isEmpty() || !vmids.contains(m.host().vmid());
        String was = label(m.state());
        switch (m.state()) {
            case SPECULATIVE:
                return rebuilt(m, adopt(m, wanted), was, "its VM exists; the store held the machine as free");
            case CREATING:
            case DELETING:
                return bound
                        ? rebuilt(
                                m,
                                adopt(m, wanted),
                                was,
                                "its VM is bound to cluster " + wanted.cluster() + ": the stored " + m.state()
                                        + " is older than the cluster")
                        : Optional.empty();
            case IDLE:
                if (bound) {
                    return rebuilt(m, adopt(m, wanted), was, "its VM is bound to cluster " + wanted.cluster());
                }
                return elsewhere
                        ? rebuilt(m, m.toBuilder().host(wanted.host()).build(), was, "its VM is elsewhere")
                        : Optional.empty();
            case CONFIGURED:
                if (!bound) {
                    Decision kept = new Decision(
                            m.id(),
                            wanted.host().ref(),
                            was,
                            "kept",
                            "its VM carries no binding; CONFIGURED is kept, a node that may serve is never reported free");
                    log.info("machine {} on {}: {}", m.id(), kept.host(), kept.why());
                    return Optional.of(kept);
                }
                Machine next = m.toBuilder()
                        .host(elsewhere ? wanted.host() : m.host())
                        .cluster(wanted.cluster())
                        .shardMetadata(
                                wanted.cluster().equals(m.cluster())
                                                && wanted.shardMetadata()
                                                        .containsKey(InventorySeeder.METADATA_DIGEST_KEY)
                                        ? m.shardMetadata()
                                        : wanted.shardMetadata())
                        .build();
                return rebuilt(m, next, was, "its VM names cluster " + wanted.cluster());
            case FAILED:
                if (bound && engine.markFailureBound(m)) {
                    Decision d = new Decision(
                            m.id(),
                            wanted.host().ref(),
                            was,
                            "failed",
                            "its VM is bound to cluster " + wanted.cluster() + ": the cleanup drains it first");
                    record(d);
                    return Optional.of(d);
                }
                return Optional.empty();
            default:
                return Optional.empty(); // CONFIGURING and DRAINING: their resume handles a bound node
        }
    }

    /** The stored machine with its VM's state, host, cluster and metadata; its own facts kept. */
    private static Machine adopt(Machine m, Machine wanted) {
        return m.toBuilder()
                .state(wanted.state())
                .host(wanted.host())
                .cluster(wanted.cluster())
                .shardMetadata(wanted.shardMetadata())
                .allocatable(m.allocatable().isEmpty() ? wanted.allocatable() : m.allocatable())
                .lastError("")
                .build();
    }

    private Optional<Decision> rebuilt(Machine m, Machine next, String was, String why) throws StoreFailure {
        if (next.equals(m) || !engine.rebuild(m, next)) {
            return Optional.empty();
        }
        return Optional.of(changed(next, was, why));
    }

    private Decision changed(Machine now, String was, String why) {
        Decision d = new Decision(now.id(), now.host().ref(), was, label(now.state()), why);
        record(d);
        return d;
    }

    private void record(Decision d) {
        log.warn(
                "machine {} on {} rebuilt from the cluster: {} -> {} ({})",
                d.machineId(),
                d.host(),
                d.was(),
                d.as(),
                d.why());
        observer.machineRebuilt(d.as());
    }

    private static String label(MachineState state) {
        return state.name().toLowerCase(Locale.ROOT);
    }
}
