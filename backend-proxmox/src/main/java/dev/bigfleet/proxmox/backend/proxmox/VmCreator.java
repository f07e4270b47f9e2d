package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.api.InstanceType;
import dev.bigfleet.proxmox.backend.proxmox.client.CloneRequest;
import dev.bigfleet.proxmox.backend.proxmox.client.ClusterResource;
import dev.bigfleet.proxmox.backend.proxmox.client.PveApiException;
import dev.bigfleet.proxmox.backend.proxmox.client.PveClient;
import dev.bigfleet.proxmox.backend.proxmox.client.TaskStatus;
import dev.bigfleet.proxmox.backend.proxmox.client.Upid;
import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.CloneSpec;
import dev.bigfleet.proxmox.spi.CreatedVm;
import dev.bigfleet.proxmox.spi.OperationContext;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Create: adopt the machine's VM if one exists (an earlier attempt got that far), else check the
 * node's memory and its storage's room, take a clone slot on the node that copies (full clones
 * only), allocate a VMID (again when another clone took it), clone the startup-chosen template
 * on its own node (with {@code target=} only when its volumes are shared), then shape, start and
 * wait for the clone ({@link CloneFinisher}).
 */
final class VmCreator {
    static final int MAX_VMID_ATTEMPTS = 5;

    private static final Logger log = LoggerFactory.getLogger(VmCreator.class);

    private final PveClient api;
    private final Markers markers;
    private final CapacityGate capacity;
    private final StorageGate storage;
    private final VmidAllocator vmids;
    private final CloneSlots slots;
    private final CloneJournal journal;
    private final UnclaimedClones unclaimed;
    private final TaskWaiter tasks;
    private final CloneLocator locator;
    private final VmAdopter adopter;
    private final NodeSchedulability schedulability;
    private final CloneFinisher finisher;
    private final Supplier<PlacementPlan> plan;
    private final Optional<String> pool;

    VmCreator(
            PveClient api,
            Markers markers,
            CapacityGate capacity,
            StorageGate storage,
            VmidAllocator vmids,
            CloneSlots slots,
            CloneJournal journal,
            TaskWaiter tasks,
            CloneLocator locator,
            VmAdopter adopter,
            CloneFinisher finisher,
            Supplier<PlacementPlan> plan,
            Optional<String> pool,
            NodeSchedulability schedulability) {
        this.api = api;
        this.markers = markers;
        this.capacity = capacity;
        this.storage = storage;
        this.vmids = vmids;
        this.slots = slots;
        this.journal = journal;
        this.unclaimed = new UnclaimedClones(api, journal);
        this.tasks = tasks;
        this.locator = locator;
        this.adopter = adopter;
        this.finisher = finisher;
        this.schedulability = schedulability;
        this.plan = plan;
        this.pool = pool;
    }

    /** What follows the clone: shaping, starting and waiting for it; returns the node the VM is on. */
    @FunctionalInterface
    interface Finish {
        String finish(CloneSpec spec, Optional<Placement> p, long vmid, OperationContext context)
                throws BackendException;
    }

    CreatedVm create(CloneSpec spec, OperationContext context) throws BackendException {
        return create(spec, context, finisher::finish);
    }

    /** Create, with {@code finish} after the clone instead of {@link CloneFinisher#finish} (preflight times its steps). */
    @SuppressWarnings("try") // the clone slot is held, unused, while the clone runs
    CreatedVm create(CloneSpec spec, OperationContext context, Finish finish) throws BackendException {
        String machineId = spec.machineId();
        if (!VmDescription.storable(machineId)) {
            throw new BackendException("machine id \"" + machineId.strip() + "\" has line breaks or surrounding spaces;"
                    + " it cannot be recorded in a VM description");
        }
        InstanceType type = spec.instanceType();
        List<ClusterResource> listed = listAll();
        Optional<Long> own = adopter.findOwn(spec, listed);
        if (own.isEmpty() && unclaimed.awaitSettled(listed, context)) {
            // a clone running since before this process started may be this machine's
            listed = listAll();
            own = adopter.findOwn(spec, listed);
        }
        if (own.isPresent()) {
            Optional<CreatedVm> adopted = adopter.adopt(spec, own.get(), placement(spec), context);
            if (adopted.isPresent()) {
                return adopted.get();
            }
            listed = listAll();
        }
        Placement p = plan.get().get(type.name(), spec.zone());
        schedulability.require(spec.zone());
        capacity.admit(
                machineId, spec.zone(), type.name(), type.memoryMib(), p.shape().mappings(), pciOfVm(), listed);
        boolean cloned = false;
        boolean created = false;
        try {
            storage.admit(machineId, p);
            long vmid;
            try (CloneSlots.Permit slot = p.full() ? slots.acquire(p.copyNode(), context) : CloneSlots.NONE) {
                vmid = cloneWithRetry(spec, p, listed, context);
            }
            cloned = true;
            storage.cloned(machineId);
            capacity.cloned(machineId, vmid);
            String node = finish.finish(spec, Optional.of(p), vmid, context);
            created = true;
            journal.settle(machineId);
            log.info(
                    "created VM {}/{} for machine {}: {} clone of template {}",
                    node,
                    vmid,
                    machineId,
                    p.mode(),
                    p.template().vmid());
            return new CreatedVm(node, vmid);
        } finally {
            if (!created) {
                capacity.release(machineId);
            }
            if (!cloned) {
                storage.release(machineId);
            }
        }
    }

    /** The PCI devices a VM of this provider takes, by its name ({@link Markers#vmName}): its type's. */
    private Function<String, Map<String, Integer>> pciOfVm() {
        Map<String, Map<String, Integer>> byPrefix = new HashMap<>();
        for (Placement each : plan.get().all()) {
            if (!each.shape().pci().isEmpty()) {
                byPrefix.put(
                        Markers.vmNamePrefix(each.type().name()), each.shape().mappings());
            }
        }
        return name -> byPrefix.entrySet().stream()
                .filter(e -> name.startsWith(e.getKey()))
                .max(Comparator.comparingInt(e -> e.getKey().length()))
                .map(Map.Entry::getValue)
                .orElse(Map.of());
    }

    private Optional<Placement> placement(CloneSpec spec) {
        try {
            return Optional.of(plan.get().get(spec.instanceType().name(), spec.zone()));
        } catch (BackendException e) {
            return Optional.empty();
        }
    }

    private List<ClusterResource> listAll() throws BackendException {
        try {
            return api.allResources();
        } catch (PveApiException e) {
            throw new BackendException("list cluster resources: " + e.getMessage(), e);
        }
    }

    private long cloneWithRetry(CloneSpec spec, Placement p, List<ClusterResource> listed, OperationContext context)
            throws BackendException {
        Set<Long> tried = new HashSet<>();
        for (int attempt = 1; attempt <= MAX_VMID_ATTEMPTS; attempt++) {
            context.checkCancelled();
            long vmid = vmids.claim(listed, tried);
            tried.add(vmid);
            try {
                journal.begin(spec.machineId(), vmid);
                if (cloneOnce(spec, p, vmid, context)) {
                    return vmid;
                }
                journal.end(spec.machineId(), vmid);
                log.debug("VMID {} was taken while cloning for machine {}; trying another", vmid, spec.machineId());
            } finally {
                vmids.release(vmid);
            }
        }
        throw new BackendException("clone template " + p.template().vmid() + " -> node " + spec.zone() + ": VMIDs "
                + tried + " were all taken by concurrent clones; giving up after " + MAX_VMID_ATTEMPTS + " attempts");
    }

    /** @return true when VMID {@code vmid} now holds the machine's clone; false when another VM took the VMID */
    private boolean cloneOnce(CloneSpec spec, Placement p, long vmid, OperationContext context)
            throws BackendException {
        String what = p.mode() + " clone of template " + p.template().vmid() + " on " + p.copyNode()
                + p.target().map(t -> " -> node " + t).orElse("");
        CloneRequest request = new CloneRequest(
                vmid,
                Markers.vmName(spec.instanceType().name(), spec.machineId()),
                markers.description(spec.machineId(), context.operationId()).render(),
                p.pool(pool),
                p.target(),
                p.full(),
                p.full() ? p.cloneStorage() : Optional.empty());
        Upid upid;
        try {
            upid = api.cloneVm(p.copyNode(), p.template().vmid(), request);
        } catch (PveApiException e) {
            if (e.outcomeUnknown()) {
                log.warn(
                        "{} as VMID {}: the answer was lost ({}); checking whether the clone started",
                        what,
                        vmid,
                        e.getMessage());
                return locator.awaitUnlocked(vmid, spec.machineId(), context).isPresent();
            }
            if (collision(e.serverMessage())) {
                return false;
            }
            journal.end(spec.machineId(), vmid);
            throw failure(what + ": " + e.getMessage(), e.serverMessage(), e);
        }
        TaskStatus status = tasks.await(upid, what, context);
        if (status.succeeded()) {
            return true;
        }
        if (collision(status.failure())) {
            return false;
        }
        journal.end(spec.machineId(), vmid);
        throw failure(what + ": task failed: " + status.failure(), status.failure(), null);
    }

    /**
     * The texts Proxmox uses when another VM took the VMID first: its config file already exists
     * on this node, or the cluster file system refused it as existing on another.
     */
    static boolean collision(String text) {
        String t = text.toLowerCase(Locale.ROOT);
        return t.contains("already exists") || t.contains("file exists");
    }

    /**
     * A lock Proxmox could not take in time (a storage's lock under concurrent clones, or the new
     * VMID's config lock): nothing was cloned, and the same Create may succeed a moment later.
     */
    static boolean lockTimeout(String text) {
        String t = text.toLowerCase(Locale.ROOT);
        return (t.contains("can't lock file") || t.contains("cfs-lock")) && t.contains("timeout");
    }

    private static BackendException failure(String message, String proxmoxText, Throwable cause) {
        return lockTimeout(proxmoxText)
                ? BackendException.transientFailure(message, cause)
                : new BackendException(message, cause);
    }
}
