package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.api.InstanceType;
import dev.bigfleet.proxmox.backend.proxmox.client.CloneRequest;
import dev.bigfleet.proxmox.backend.proxmox.client.ClusterResource;
import dev.bigfleet.proxmox.backend.proxmox.client.PveApiException;
import dev.bigfleet.proxmox.backend.proxmox.client.PveClient;
import dev.bigfleet.proxmox.backend.proxmox.client.TagList;
import dev.bigfleet.proxmox.backend.proxmox.client.TaskStatus;
import dev.bigfleet.proxmox.backend.proxmox.client.Upid;
import dev.bigfleet.proxmox.backend.proxmox.client.VmConfig;
import dev.bigfleet.proxmox.backend.proxmox.client.VmSettings;
import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.CloneSpec;
import dev.bigfleet.proxmox.spi.CreatedVm;
import dev.bigfleet.proxmox.spi.OperationContext;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Create: adopt the machine's VM if one exists (an earlier attempt got that far), else check the
 * node, take a clone slot, allocate a VMID (again on a conflict), full-clone the template onto the
 * node, size and mark the clone, start it and wait for its guest agent.
 */
final class VmCreator {
    static final int MAX_VMID_ATTEMPTS = 5;
    /** How long a clone whose answer was lost may take to show up before another VMID is tried. */
    static final Duration ABSENT_GRACE = Duration.ofSeconds(5);

    private static final Polling UNLOCK_POLLING = new Polling(Duration.ofMillis(250), Duration.ofSeconds(2));
    private static final Logger log = LoggerFactory.getLogger(VmCreator.class);

    private final PveClient api;
    private final Markers markers;
    private final ManagedInventory inventory;
    private final CapacityGate capacity;
    private final VmidAllocator vmids;
    private final CloneSlots slots;
    private final CloneJournal journal;
    private final UnclaimedClones unclaimed;
    private final TaskWaiter tasks;
    private final PowerControl power;
    private final AgentWaiter agent;
    private final Optional<String> pool;
    private final Optional<String> storage;

    VmCreator(
            PveClient api,
            Markers markers,
            ManagedInventory inventory,
            CapacityGate capacity,
            VmidAllocator vmids,
            CloneSlots slots,
            CloneJournal journal,
            TaskWaiter tasks,
            PowerControl power,
            AgentWaiter agent,
            Optional<String> pool,
            Optional<String> storage) {
        this.api = api;
        this.markers = markers;
        this.inventory = inventory;
        this.capacity = capacity;
        this.vmids = vmids;
        this.slots = slots;
        this.journal = journal;
        this.unclaimed = new UnclaimedClones(api, journal);
        this.tasks = tasks;
        this.power = power;
        this.agent = agent;
        this.pool = pool;
        this.storage = storage;
    }

    @SuppressWarnings("try") // the clone slot is held, unused, while the clone runs
    CreatedVm create(CloneSpec spec, OperationContext context) throws BackendException {
        String machineId = spec.machineId();
        if (!VmDescription.storable(machineId)) {
            throw new BackendException("machine id \"" + machineId.strip() + "\" has line breaks or surrounding spaces;"
                    + " it cannot be recorded in a VM description");
        }
        List<ClusterResource> listed = listAll();
        Optional<ClusterResource> own = findOwn(spec, listed);
        if (own.isEmpty() && unclaimed.awaitSettled(listed, context)) {
            // a clone running since before this process started may be this machine's
            listed = listAll();
            own = findOwn(spec, listed);
        }
        if (own.isPresent()) {
            Optional<CreatedVm> adopted = adopt(spec, own.get(), context);
            if (adopted.isPresent()) {
                return adopted.get();
            }
            listed = listAll();
        }
        InstanceType type = spec.instanceType();
        ClusterResource template = template(type, listed);
        capacity.admit(machineId, spec.zone(), type.name(), type.memoryMib(), listed);
        boolean created = false;
        try {
            long vmid;
            try (CloneSlots.Permit slot = slots.acquire(spec.zone(), context)) {
                vmid = cloneWithRetry(spec, template, listed, context);
            }
            capacity.cloned(machineId, vmid);
            String node = finish(spec, vmid, context);
            created = true;
            journal.settle(machineId);
            log.info("created VM {}/{} for machine {} from template {}", node, vmid, machineId, template.vmid());
            return new CreatedVm(node, vmid);
        } finally {
            if (!created) {
                capacity.release(machineId);
            }
        }
    }

    private List<ClusterResource> listAll() throws BackendException {
        try {
            return api.allResources();
        } catch (PveApiException e) {
            throw new BackendException("list cluster resources: " + e.getMessage(), e);
        }
    }

    /** A VM already carrying this machine's description, or a clone of ours for it still in flight. */
    private Optional<ClusterResource> findOwn(CloneSpec spec, List<ClusterResource> listed) throws BackendException {
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
                return Optional.of(r);
            }
            Optional<VmIdentity> identity = inventory.identify(r);
            if (identity.flatMap(VmIdentity::description)
                    .filter(d -> d.belongsTo(markers.providerLabel(), machineId))
                    .isPresent()) {
                return Optional.of(r);
            }
        }
        return Optional.empty();
    }

    /**
     * Takes over the machine's existing VM: waits for its clone to finish, restores size, markers
     * and the agent if an earlier attempt died before writing them, and brings it up.
     *
     * @return empty when the VM turned out not to be the machine's after all (or vanished)
     */
    private Optional<CreatedVm> adopt(CloneSpec spec, ClusterResource found, OperationContext context)
            throws BackendException {
        Optional<Located> settled = awaitUnlocked(found.vmid(), spec.machineId(), context);
        if (settled.isEmpty()) {
            journal.settle(spec.machineId());
            return Optional.empty();
        }
        String node = settled.get().node();
        long vmid = found.vmid();
        VmConfig config = settled.get().config();
        VmSettings wanted = settings(
                spec,
                VmDescription.parse(config.description())
                        .map(VmDescription::operationId)
                        .orElse(""));
        if (config.cores() != wanted.cores()
                || config.memoryMib() != wanted.memoryMib()
                || !config.agentEnabled()
                || !config.tags().contains(markers.providerTag())
                || !config.tags().contains(markers.machineTag(spec.machineId()))) {
            writeSettings(node, vmid, wanted);
        }
        inventory.remember(
                vmid,
                wanted.tags(),
                VmDescription.parse(Optional.of(wanted.description())).orElseThrow());
        power.ensureUp(node, vmid, context);
        journal.settle(spec.machineId());
        log.info("adopted VM {}/{} for machine {}", node, vmid, spec.machineId());
        return Optional.of(new CreatedVm(node, vmid));
    }

    private record Located(String node, VmConfig config) {}

    /** Waits while the VM is locked by its clone; empty if it vanishes or is someone else's. */
    private Optional<Located> awaitUnlocked(long vmid, String machineId, OperationContext context)
            throws BackendException {
        Instant[] absentSince = {null};
        // the probe answers Optional.of(the outcome): present = found and unlocked, empty = gone or not ours
        Optional<Optional<Located>> outcome = UNLOCK_POLLING.until(Instant.MAX, context, () -> {
            Optional<Located> now = locate(vmid);
            if (now.isEmpty()) {
                absentSince[0] = absentSince[0] == null ? Instant.now() : absentSince[0];
                boolean gone = Duration.between(absentSince[0], Instant.now()).compareTo(ABSENT_GRACE) >= 0;
                return gone ? Optional.of(Optional.<Located>empty()) : Optional.empty();
            }
            absentSince[0] = null;
            VmConfig c = now.get().config();
            Optional<VmDescription> d = VmDescription.parse(c.description());
            if (d.isPresent() && !d.get().belongsTo(markers.providerLabel(), machineId)) {
                return Optional.of(Optional.<Located>empty());
            }
            boolean cloning = c.lock().filter("clone"::equals).isPresent();
            if (cloning) {
                return Optional.empty();
            }
            return Optional.of(d.isPresent() ? now : Optional.<Located>empty());
        });
        return outcome.orElseThrow(() -> new BackendException(
                "VM " + vmid + " of machine " + machineId + " was still being cloned at the transition deadline"));
    }

    /** Where a VMID lives now and its config; empty when no VM has it. */
    private Optional<Located> locate(long vmid) throws BackendException {
        try {
            Optional<ClusterResource> r = api.vmResources().stream()
                    .filter(x -> x.isQemu() && x.vmid() == vmid)
                    .findFirst();
            if (r.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(new Located(r.get().node(), api.config(r.get().node(), vmid)));
        } catch (PveApiException e) {
            if (e.vmMissing()) {
                return Optional.empty();
            }
            throw new BackendException("look up VM " + vmid + ": " + e.getMessage(), e);
        }
    }

    private static ClusterResource template(InstanceType type, List<ClusterResource> listed) throws BackendException {
        Optional<ClusterResource> t = listed.stream()
                .filter(r -> r.isQemu() && r.vmid() == type.templateVmid())
                .findFirst();
        if (t.isEmpty()) {
            throw new BackendException("template VMID " + type.templateVmid() + " of instance type " + type.name()
                    + " is not in the cluster (or not visible to the API token)");
        }
        if (t.get().template().filter(isTemplate -> !isTemplate).isPresent()) {
            throw new BackendException(
                    "VMID " + type.templateVmid() + " of instance type " + type.name() + " is not a template");
        }
        return t.get();
    }

    private long cloneWithRetry(
            CloneSpec spec, ClusterResource template, List<ClusterResource> listed, OperationContext context)
            throws BackendException {
        Set<Long> tried = new HashSet<>();
        for (int attempt = 1; attempt <= MAX_VMID_ATTEMPTS; attempt++) {
            context.checkCancelled();
            long vmid = vmids.claim(listed, tried);
            tried.add(vmid);
            try {
                journal.begin(spec.machineId(), vmid);
                if (cloneOnce(spec, template, vmid, context)) {
                    return vmid;
                }
                journal.end(spec.machineId(), vmid);
                log.debug("VMID {} was taken while cloning for machine {}; trying another", vmid, spec.machineId());
            } finally {
                vmids.release(vmid);
            }
        }
        throw new BackendException("clone template " + template.vmid() + " -> node " + spec.zone() + ": VMIDs " + tried
                + " were all taken by concurrent clones; giving up after " + MAX_VMID_ATTEMPTS + " attempts");
    }

    /** @return true when VMID {@code vmid} now holds the machine's clone; false on a VMID conflict */
    private boolean cloneOnce(CloneSpec spec, ClusterResource template, long vmid, OperationContext context)
            throws BackendException {
        String what = "clone template " + template.vmid() + " -> node " + spec.zone();
        CloneRequest request = new CloneRequest(
                vmid,
                Markers.vmName(spec.instanceType().name(), spec.machineId()),
                markers.description(spec.machineId(), context.operationId()).render(),
                pool,
                spec.zone().equals(template.node()) ? Optional.empty() : Optional.of(spec.zone()),
                storage);
        Upid upid;
        try {
            upid = api.cloneVm(template.node(), template.vmid(), request);
        } catch (PveApiException e) {
            if (e.outcomeUnknown()) {
                log.warn(
                        "{} as VMID {}: the answer was lost ({}); checking whether the clone started",
                        what,
                        vmid,
                        e.getMessage());
                return awaitUnlocked(vmid, spec.machineId(), context).isPresent();
            }
            if (conflict(e.serverMessage())) {
                return false;
            }
            throw new BackendException(what + ": " + e.getMessage(), e);
        }
        TaskStatus status = tasks.await(upid, what, context);
        if (status.succeeded()) {
            return true;
        }
        if (conflict(status.failure())) {
            return false;
        }
        throw new BackendException(what + ": task failed: " + status.failure());
    }

    /** The texts Proxmox uses when another clone took the VMID first. */
    static boolean conflict(String text) {
        String t = text.toLowerCase(Locale.ROOT);
        return t.contains("already exists") || t.contains("can't lock file") || t.contains("file exists");
    }

    /** Sizes and marks the clone, starts it and waits for its agent; returns the node it is on. */
    private String finish(CloneSpec spec, long vmid, OperationContext context) throws BackendException {
        VmSettings settings = settings(spec, context.operationId());
        String node = spec.zone();
        try {
            api.updateConfig(node, vmid, settings);
        } catch (PveApiException e) {
            if (!e.vmMissing()) {
                throw new BackendException("configure clone " + node + "/" + vmid + ": " + e.getMessage(), e);
            }
            // not where the clone was aimed (HA or a target Proxmox ignored): find it
            node = locate(vmid)
                    .map(Located::node)
                    .orElseThrow(() -> new BackendException(
                            "configure clone " + spec.zone() + "/" + vmid + ": the clone vanished"));
            writeSettings(node, vmid, settings);
        }
        inventory.remember(vmid, settings.tags(), markers.description(spec.machineId(), context.operationId()));
        power.start(node, vmid, context);
        agent.await(node, vmid, context);
        return node;
    }

    private VmSettings settings(CloneSpec spec, String operationId) {
        TagList tags = markers.tagsFor(spec.machineId());
        return new VmSettings(
                spec.instanceType().vcpu(),
                spec.instanceType().memoryMib(),
                tags,
                markers.description(spec.machineId(), operationId).render(),
                true);
    }

    private void writeSettings(String node, long vmid, VmSettings settings) throws BackendException {
        try {
            api.updateConfig(node, vmid, settings);
        } catch (PveApiException e) {
            throw new BackendException("configure clone " + node + "/" + vmid + ": " + e.getMessage(), e);
        }
    }
}
