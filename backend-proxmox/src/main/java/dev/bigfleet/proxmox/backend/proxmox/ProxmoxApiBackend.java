package dev.bigfleet.proxmox.backend.proxmox;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bigfleet.proxmox.backend.proxmox.client.NodeEntry;
import dev.bigfleet.proxmox.backend.proxmox.client.PveApiException;
import dev.bigfleet.proxmox.backend.proxmox.client.PveClient;
import dev.bigfleet.proxmox.backend.proxmox.client.PveTransport;
import dev.bigfleet.proxmox.backend.proxmox.client.StorageStatus;
import dev.bigfleet.proxmox.backend.proxmox.kube.WorkloadClusters;
import dev.bigfleet.proxmox.spi.ApiCallRecorder;
import dev.bigfleet.proxmox.spi.ApiStatus;
import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.BindingRecorder;
import dev.bigfleet.proxmox.spi.BootstrapSpec;
import dev.bigfleet.proxmox.spi.CloneSpec;
import dev.bigfleet.proxmox.spi.CreatedVm;
import dev.bigfleet.proxmox.spi.DrainSpec;
import dev.bigfleet.proxmox.spi.ManagedVm;
import dev.bigfleet.proxmox.spi.NodeStatus;
import dev.bigfleet.proxmox.spi.OperationContext;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.spi.ReadinessGate;
import dev.bigfleet.proxmox.spi.VmBinding;
import dev.bigfleet.proxmox.spi.VmTarget;
import java.net.URI;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The real backend: drives a Proxmox VE cluster through {@code /api2/json}. Each operation proves
 * the VM is the machine's before touching it, and every failure message is scrubbed of the token
 * secret (and, for Configure, of the blob) before it can become {@code last_error}. A failure is
 * transient when the API could not be asked or could not answer and a retry of the same call can
 * pick up whatever was done (see {@link ApiFailures}); everything else is definite.
 */
public final class ProxmoxApiBackend implements ProxmoxBackend {
    private final PveTransport transport;
    private final PveClient api;
    private final ManagedInventory inventory;
    private final OwnershipGuard guard;
    private final PowerControl power;
    private final VmCreator creator;
    private final BootstrapDelivery bootstrap;
    private final Drainer drainer;
    private final VmDestroyer destroyer;
    private final CloneJournal journal;
    private final CloneLocator locator;
    private final VmBinder binder;
    private final NodeSchedulability schedulability;
    private final Optional<NodeReadiness> readiness;
    private final CapacityGate capacity;
    private final StorageStatusCache storageStatus;
    private final StorageGate storage;
    private final AddressAllocator addresses = new AddressAllocator();
    private final TemplateDigests templateDigests;
    private final VerifiedVms verified = new VerifiedVms();
    private final Redactor redactor;
    private volatile PlacementPlan plan = new PlacementPlan(List.of());
    private final WebUi webUi;
    private final CloneFinisher finisher;
    private final AgentWaiter agent;
    private final GuestExec exec;
    private final Markers markers;
    private final WorkloadClusters workloadClusters;
    private final TaskWaiter tasks;
    private final SeedVolumes seeds;
    private final SeedDelivery seedDelivery;

    ProxmoxApiBackend(ProxmoxSettings settings, String providerLabel, ApiCallRecorder recorder) {
        this(settings, providerLabel, recorder, WorkloadClusters.through(settings.clusterKubeconfigs()));
    }

    /** @param workloadClusters the clusters' Kubernetes APIs (tests may pass their own) */
    ProxmoxApiBackend(
            ProxmoxSettings settings,
            String providerLabel,
            ApiCallRecorder recorder,
            WorkloadClusters workloadClusters) {
        this.workloadClusters = workloadClusters;
        ObjectMapper json = new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
        this.transport = new PveTransport(
                settings.apiRoot(), settings.token(), settings.trust(), json, recorder, settings.transport());
        this.api = new PveClient(transport);
        this.markers = new Markers(providerLabel);
        this.redactor = Redactor.of(settings.token()::secretsHeld);
        this.webUi = settings.webUi();
        this.inventory = new ManagedInventory(api, markers, () -> plan.pools(settings.pool()));
        this.guard = new OwnershipGuard(api, markers);
        this.tasks = new TaskWaiter(api);
        this.agent = new AgentWaiter(api, settings.agentTimeout());
        this.power = new PowerControl(api, tasks, agent);
        this.capacity = new CapacityGate(settings.memoryOvercommit());
        this.storageStatus = new StorageStatusCache(api);
        this.storage = new StorageGate(storageStatus);
        this.templateDigests = new TemplateDigests(api, () -> {
            java.util.Map<Long, Template> distinct = new java.util.LinkedHashMap<>();
            plan.all().forEach(p -> distinct.putIfAbsent(p.template().vmid(), p.template()));
            return distinct.values();
        });
        this.journal = new CloneJournal();
        this.locator = new CloneLocator(api, markers);
        this.finisher =
                new CloneFinisher(api, markers, inventory, tasks, power, agent, locator, addresses, templateDigests);
        this.schedulability = new NodeSchedulability(api);
        this.creator = new VmCreator(
                api,
                markers,
                capacity,
                storage,
                new VmidAllocator(api, settings.vmidRange()),
                new CloneSlots(settings.maxClonesPerNode()),
                journal,
                tasks,
                locator,
                new VmAdopter(markers, inventory, journal, locator, finisher, power),
                finisher,
                () -> plan,
                settings.pool(),
                schedulability);
        this.exec = new GuestExec(api);
        this.bootstrap = new BootstrapDelivery(api, exec, settings.bootstrapPath(), settings.bootstrapExec());
        this.drainer = new Drainer(exec, settings.drainExec());
        this.destroyer = new VmDestroyer(api, guard, tasks);
        this.binder = new VmBinder(api, guard, inventory);
        this.readiness = settings.readyExec().map(argv -> new NodeReadiness(exec, argv));
        this.seeds = new SeedVolumes(api, providerLabel);
        this.seedDelivery = new SeedDelivery(api, tasks, power, seeds, workloadClusters);
    }

    PveClient api() {
        return api;
    }

    StorageStatusCache storageStatus() {
        return storageStatus;
    }

    Redactor redactor() {
        return redactor;
    }

    /**
     * The workload clusters' Kubernetes APIs ({@code --cluster-kubeconfig}, {@code
     * --cluster-kubeconfig-dir}): readiness and drain for guests that cannot run commands.
     */
    WorkloadClusters workloadClusters() {
        return workloadClusters;
    }

    /** Closes the workload clusters' clients. */
    @Override
    public void close() {
        workloadClusters.close();
    }

    /** The parts of Create, Configure, Drain and Delete that preflight runs one by one. */
    record Parts(
            SeedDelivery seedDelivery,
            VmCreator creator,
            CloneFinisher finisher,
            PowerControl power,
            AgentWaiter agent,
            GuestExec exec,
            OwnershipGuard guard,
            ManagedInventory inventory,
            VmDestroyer destroyer,
            Markers markers,
            CloneJournal journal,
            CloneLocator locator) {}

    Parts parts() {
        return new Parts(
                seedDelivery,
                creator,
                finisher,
                power,
                agent,
                exec,
                guard,
                inventory,
                destroyer,
                markers,
                journal,
                locator);
    }

    /** The templates and clone modes startup chose for each (instance type, node). */
    void usePlan(PlacementPlan chosen) {
        this.plan = chosen;
        if (chosen.all().stream().anyMatch(p -> !p.shape().pci().isEmpty())) {
            capacity.usePciMappings(api.pciMappings());
        }
    }

    @Override
    public CreatedVm cloneAndStart(CloneSpec spec, OperationContext context) throws BackendException {
        return scrubbed("create", redactor, () -> creator.create(spec, context));
    }

    /**
     * The machine's VM is its own and running with its guest agent answering; for a type whose
     * bootstrap is a NoCloud seed, only that it is its own: such a VM is booted by its Configure and
     * its guest may have no agent.
     */
    @Override
    public void ensureRunning(VmTarget target, OperationContext context) throws BackendException {
        scrubbed("ensure running", redactor, () -> {
            OwnedVm vm = guard.require("ensure running", target);
            if (!plan.bootstrapOf(target.machineId()).nocloud()) {
                power.ensureUp(vm.node(), vm.vmid(), context);
            }
            verified.put(context.operationId(), vm);
            return null;
        });
    }

    @Override
    public void applyBootstrap(BootstrapSpec spec, OperationContext context) throws BackendException {
        byte[] blob = spec.bootstrapBlob();
        Redactor withBlob = redactor.withBlob(blob);
        GuestBootstrap delivery = plan.bootstrapOf(spec.target().machineId());
        scrubbed("configure", withBlob, () -> {
            if (delivery.nocloud()) {
                OwnedVm vm = owned("configure", spec.target(), context);
                seedDelivery.deliver(
                        vm,
                        PlacementPlan.instanceTypeOf(vm.machineId()).orElseThrow(),
                        spec.clusterId(),
                        delivery.seedStorage().orElseThrow(),
                        blob,
                        context);
                return null;
            }
            OwnedVm vm = ready("configure", spec.target(), context);
            bootstrap.deliver(vm, blob, redactor, context);
            return null;
        });
    }

    /**
     * Drains the node: in the guest ({@code --drain-exec}), or, for a type whose bootstrap is a
     * NoCloud seed, through the workload cluster's API (cordon, evictions, the Node deleted), after
     * which its VM is powered off so that no kubelet registers the node again.
     */
    @Override
    public void drain(DrainSpec spec, OperationContext context) throws BackendException {
        scrubbed("drain", redactor, () -> {
            if (plan.bootstrapOf(spec.target().machineId()).nocloud()) {
                OwnedVm vm = owned("drain", spec.target(), context);
                String node = SeedDelivery.nodeName(
                        PlacementPlan.instanceTypeOf(vm.machineId()).orElseThrow(), vm.machineId());
                workloadClusters.drain(
                        spec.clusterId(),
                        node,
                        spec.gracePeriodSeconds(),
                        context.deadline().minus(SeedDelivery.READY_MARGIN));
                power.stop(vm.node(), vm.vmid(), context);
                return null;
            }
            OwnedVm vm = ready("drain", spec.target(), context);
            drainer.drain(vm, spec.gracePeriodSeconds(), redactor, context);
            return null;
        });
    }

    @Override
    public void destroy(VmTarget target, OperationContext context) throws BackendException {
        scrubbed("delete", redactor, () -> {
            destroyer.destroy(target, context);
            inventory.forget(target.vmid());
            capacity.release(target.machineId());
            storage.release(target.machineId());
            addresses.release(target.machineId());
            return null;
        });
    }

    /**
     * A reconcile pass: besides listing the VMs, it marks the storage reads stale (no call), and removes
     * the seed images no Configure uses any more from every seed storage of the nocloud types.
     */
    @Override
    public List<ManagedVm> describeManaged() throws BackendException {
        storageStatus.expire();
        List<ManagedVm> vms = scrubbed("describe", redactor, inventory::describe);
        sweepSeeds();
        return vms;
    }

    /** One listing of each (node, seed storage) the nocloud types use, and the removal of stale seeds. */
    private void sweepSeeds() {
        Set<String> swept = new LinkedHashSet<>();
        for (Placement p : plan.all()) {
            if (p.bootstrap().nocloud()
                    && swept.add(p.node() + "/" + p.bootstrap().seedStorage().orElseThrow())) {
                seeds.sweep(p.node(), p.bootstrap().seedStorage().orElseThrow(), tasks);
            }
        }
    }

    @Override
    public List<NodeStatus> nodes() throws BackendException {
        return scrubbed("nodes", redactor, () -> {
            List<NodeEntry> nodes = api.nodes();
            return nodes.stream().map(this::withStorage).toList();
        });
    }

    /** The node with the space of the storages its clones are on, as the node sees them now. */
    private NodeStatus withStorage(NodeEntry n) {
        Set<String> used = new LinkedHashSet<>();
        for (Placement p : plan.all()) {
            if (p.node().equals(n.node())) {
                used.addAll(p.writes().keySet());
                p.template().disks().stream().filter(d -> !d.cdrom()).forEach(d -> used.add(d.storage()));
            }
        }
        long total = 0;
        long taken = 0;
        Optional<StorageStatusCache.Read> read =
                used.isEmpty() || !n.online() ? Optional.empty() : Optional.of(storageStatus.refresh(n.node()));
        for (String s : used) {
            Optional<StorageStatus> st = read.flatMap(r -> r.find(s));
            if (st.isPresent()) {
                total += st.get().total();
                taken += st.get().used();
            }
        }
        Optional<String> unschedulable;
        try {
            unschedulable = schedulability.refusal(n.node());
        } catch (BackendException e) {
            unschedulable = n.online() ? Optional.empty() : Optional.of("it is offline");
        }
        return new NodeStatus(n.node(), n.online(), n.maxmem(), n.mem(), n.maxcpu(), total, taken, unschedulable);
    }

    /** Whether the API answers; the last error is scrubbed like any message that leaves the backend. */
    @Override
    public Optional<ApiStatus> apiStatus() {
        ApiStatus status = transport.status();
        return Optional.of(new ApiStatus(
                status.reachable(), status.since(), status.lastError().map(redactor::scrub), status.breakerOpen()));
    }

    /** Unless {@code --ready-exec none}: the node must be Ready before a Configure ends. */
    @Override
    public Optional<ReadinessGate> readiness() {
        return readiness.map(probe -> (target, clusterId, context) -> scrubbed("configure", redactor, () -> {
            if (plan.bootstrapOf(target.machineId()).nocloud()) {
                return null; // its Configure waited for the node through the cluster's API
            }
            OwnedVm vm = ready("node readiness", target, context);
            probe.await(vm, redactor, context);
            return null;
        }));
    }

    @Override
    public Optional<BindingRecorder> bindings() {
        return Optional.of(new BindingRecorder() {
            @Override
            public void recordBinding(VmTarget target, VmBinding binding, OperationContext context)
                    throws BackendException {
                scrubbed("configure", redactor, () -> {
                    binder.recordBinding(target, binding, context);
                    return null;
                });
            }

            @Override
            public void clearBinding(VmTarget target, OperationContext context) throws BackendException {
                scrubbed("drain", redactor, () -> {
                    binder.clearBinding(target, context);
                    return null;
                });
            }
        });
    }

    @Override
    public Optional<URI> webUiLink(VmTarget vm) {
        return Optional.of(webUi.vmPage(vm.vmid()));
    }

    /** Whether the VM's template changed since its clone (its template is read again at most every 5 minutes). */
    @Override
    public Optional<String> templateDrift(VmTarget vm) {
        return inventory.templateOf(vm.vmid(), vm.machineId()).flatMap(templateDigests::drift);
    }

    @Override
    public long driftedVms() {
        return inventory.templateRefs().stream()
                .filter(r -> templateDigests.drift(r).isPresent())
                .count();
    }

    /** The addresses its description records, as the last listing read it (no call). */
    @Override
    public List<String> vmAddresses(VmTarget vm) {
        return inventory.addresses(vm.vmid(), vm.machineId());
    }

    /** The machine's VM, owned: as ensureRunning just proved in this operation, or checked now. */
    private OwnedVm owned(String what, VmTarget target, OperationContext context) throws BackendException {
        Optional<OwnedVm> recent = verified.get(context.operationId(), target.machineId(), target.vmid());
        if (recent.isPresent()) {
            verified.clear(context.operationId(), target.machineId());
            return recent.get();
        }
        return guard.require(what, target);
    }

    /** The machine's VM, owned and up: as ensureRunning just proved in this operation, or checked now. */
    private OwnedVm ready(String what, VmTarget target, OperationContext context) throws BackendException {
        Optional<OwnedVm> recent = verified.get(context.operationId(), target.machineId(), target.vmid());
        if (recent.isPresent()) {
            verified.clear(context.operationId(), target.machineId());
            return recent.get();
        }
        OwnedVm vm = guard.require(what, target);
        power.ensureUp(vm.node(), vm.vmid(), context);
        return vm;
    }

    private interface Work<T> {
        T run() throws BackendException;
    }

    /**
     * Runs one backend call, prefixing its failure with {@code what} and scrubbing it of secrets. The
     * failure keeps its kind: transient (a retry of the same call may succeed), definite, or a
     * Configure failure after the bootstrap hook started.
     */
    private static <T> T scrubbed(String what, Redactor redactor, Work<T> work) throws BackendException {
        try {
            return work.run();
        } catch (BackendException e) {
            String clean = redactor.scrub(String.valueOf(e.getMessage()));
            String message = clean.startsWith(what + ":") ? clean : what + ": " + clean;
            // the cause may quote the same text; keep it only when nothing had to be removed
            throw ApiFailures.sameKind(e, message, clean.equals(e.getMessage()) ? e.getCause() : null);
        } catch (PveApiException e) {
            String message = what + ": " + redactor.scrub(String.valueOf(e.getMessage()));
            throw e.isTransient() ? BackendException.transientFailure(message, null) : new BackendException(message);
        }
    }
}
