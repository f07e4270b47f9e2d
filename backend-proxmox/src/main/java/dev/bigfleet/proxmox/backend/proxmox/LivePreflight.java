package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.backend.proxmox.client.ExecStatus;
import dev.bigfleet.proxmox.backend.proxmox.client.PveClient;
import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.CloneSpec;
import dev.bigfleet.proxmox.spi.ManagedVm;
import dev.bigfleet.proxmox.spi.PreflightRow;
import dev.bigfleet.proxmox.spi.PreflightStep;
import dev.bigfleet.proxmox.spi.VmTarget;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code preflight --live} for one (instance type, node) pair: clones one VM the way Create does
 * (the same admission, clone, shape and start, carrying the provider's tags and a machine id of
 * its own), times the guest agent's first answer, delivers a test blob and runs the bootstrap hook,
 * then the readiness probe and the drain hook, each with {@code BIGFLEET_PREFLIGHT=1} in its
 * environment (Proxmox's agent exec takes no environment, so through {@code /usr/bin/env}), and
 * destroys the VM, confirming it is gone. Whatever happens, a VM it made is destroyed: after a
 * failed step, when the thread is interrupted, and on JVM shutdown (Ctrl-C), which waits for
 * that.
 */
final class LivePreflight implements AutoCloseable {
    static final List<String> STEPS = List.of("clone", "start", "agent", "bootstrap", "ready", "drain", "destroy");

    /** The environment the setup kit's hooks read as "check what you need, change nothing". */
    static final List<String> DRY_RUN = List.of("/usr/bin/env", "BIGFLEET_PREFLIGHT=1");

    /** A blob that joins nothing even when the bootstrap hook runs it as a script. */
    static final byte[] TEST_BLOB =
            "#!/bin/sh\n# bigfleet preflight: a test blob; it joins nothing\nexit 0\n".getBytes(StandardCharsets.UTF_8);

    /** How the machine ids of preflight's VMs begin. */
    static final String MACHINE_PREFIX = "preflight-";

    /** The grace period the drain hook is given. */
    static final long DRAIN_GRACE_SECONDS = 30;

    private static final Duration STEP_LIMIT = Duration.ofMinutes(10);
    private static final Duration CLEANUP_LIMIT = Duration.ofMinutes(5);
    private static final Duration PROBE_LIMIT = NodeReadiness.PROBE_LIMIT;
    private static final Logger log = LoggerFactory.getLogger(LivePreflight.class);

    /** Checks in the guest in place of the built-in kubectl probe and drain, which have no dry run. */
    private static final List<String> KUBECTL_PRESENT = List.of(
            "/bin/sh",
            "-c",
            "command -v kubectl >/dev/null 2>&1 || { echo 'kubectl is not installed in the guest' >&2; exit 1; };"
                    + " command -v kubectl");

    private final ProxmoxApiBackend backend;
    private final PveClient api;
    private final ProxmoxApiBackend.Parts parts;
    private final ProxmoxSettings settings;
    private final Redactor redactor;
    private final String run = UUID.randomUUID().toString().substring(0, 8);
    private final Set<VmTarget> made = ConcurrentHashMap.newKeySet();
    /** Where each pair's VM was last known to be (its clone's node, then where it was shaped). */
    private final java.util.Map<String, VmTarget> latest = new ConcurrentHashMap<>();

    private final AtomicBoolean cancelled = new AtomicBoolean();
    private final CountDownLatch cleaned = new CountDownLatch(1);
    private final Thread worker;
    private final Thread onShutdown;

    LivePreflight(ProxmoxApiBackend backend, ProxmoxSettings settings) {
        this.backend = backend;
        this.api = backend.api();
        this.parts = backend.parts();
        this.settings = settings;
        this.redactor = backend.redactor();
        this.worker = Thread.currentThread();
        this.onShutdown = new Thread(this::interrupted, "preflight-cleanup");
        Runtime.getRuntime().addShutdownHook(onShutdown);
    }

    /** Whether Ctrl-C stopped the run: what is left of it is skipped. */
    boolean cancelled() {
        return cancelled.get();
    }

    /** Ctrl-C: stop the step under way and wait until what was made is destroyed. */
    private void interrupted() {
        cancelled.set(true);
        worker.interrupt();
        try {
            if (!cleaned.await(CLEANUP_LIMIT.toSeconds(), TimeUnit.SECONDS)) {
                System.err.println("preflight: interrupted; VMs it made may be left: " + made);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    PreflightRow run(Placement p, PreflightRow checked) {
        List<PreflightStep> steps = new ArrayList<>(checked.steps());
        if (cancelled.get() || Thread.currentThread().isInterrupted()) {
            STEPS.forEach(s -> steps.add(PreflightStep.skip(s, "interrupted")));
            return new PreflightRow(checked.instanceType(), checked.node(), steps);
        }
        String machineId =
                MACHINE_PREFIX + run + "-" + Markers.tagSafe(p.type().name()) + "-" + Markers.tagSafe(p.node());
        if (p.bootstrap().nocloud()) {
            steps.addAll(nocloud(p, machineId));
            return new PreflightRow(checked.instanceType(), checked.node(), steps);
        }
        PreflightContext context = PreflightContext.of(machineId, STEP_LIMIT, cancelled::get);
        List<PreflightStep> live = new ArrayList<>();
        backend.usePlan(new PlacementPlan(List.of(p)));
        String[] current = {"clone"};
        long[] since = {System.nanoTime()};
        try {
            CloneSpec spec = new CloneSpec(machineId, p.type(), p.node(), Map.of());
            parts.creator().create(spec, context, (s, placement, vmid, c) -> {
                remember(new VmTarget(machineId, s.zone(), vmid));
                String node = parts.finisher().shape(s, placement, vmid, c);
                remember(new VmTarget(machineId, node, vmid));
                live.add(PreflightStep.pass(
                                "clone",
                                "VM " + node + "/" + vmid + ", "
                                        + p.mode().toString().toLowerCase(Locale.ROOT)
                                        + " clone of template " + p.template().vmid() + ", tagged "
                                        + parts.markers().providerTag() + newDrives(p))
                        .took(lap(since)));
                current[0] = "start";
                parts.power().start(node, vmid, c);
                live.add(PreflightStep.pass("start", "running").took(lap(since)));
                current[0] = "agent";
                parts.agent().await(node, vmid, c);
                live.add(PreflightStep.pass("agent", "the guest agent answered").took(lap(since)));
                return node;
            });
            OwnedVm owned = ownedVmOf(machineId);
            current[0] = "bootstrap";
            List<String> hook = dryRun(settings.bootstrapExec());
            new BootstrapDelivery(api, parts.exec(), settings.bootstrapPath(), hook)
                    .deliver(owned, TEST_BLOB, redactor, context);
            live.add(PreflightStep.pass(
                            "bootstrap",
                            "test blob written to " + settings.bootstrapPath() + "; \"" + String.join(" ", hook) + " "
                                    + settings.bootstrapPath() + "\" exited 0")
                    .took(lap(since)));
            current[0] = "ready";
            live.add(ready(owned, context).took(lap(since)));
            if (live.get(live.size() - 1).failed()) {
                throw new StepFailed();
            }
            current[0] = "drain";
            live.add(drain(owned, context).took(lap(since)));
            if (live.get(live.size() - 1).failed()) {
                throw new StepFailed();
            }
        } catch (StepFailed e) {
            // reported in its step
        } catch (BackendException | RuntimeException e) {
            boolean interrupted = cancelled.get() || Thread.currentThread().isInterrupted();
            live.add(PreflightStep.fail(
                            current[0],
                            interrupted
                                    ? "interrupted; the VM it made is destroyed"
                                    : withHint(redactor.scrub(String.valueOf(e.getMessage()))))
                    .took(lap(since)));
        }
        for (String s : STEPS.subList(live.size(), STEPS.size() - 1)) {
            live.add(PreflightStep.skip(s, "an earlier step failed"));
        }
        since[0] = System.nanoTime();
        live.add(destroy(machineId).took(lap(since)));
        steps.addAll(live);
        return new PreflightRow(checked.instanceType(), checked.node(), steps);
    }

    /**
     * A nocloud type's pair: the clone shaped and left stopped as Create leaves it, a test seed
     * uploaded and attached, the clone started, the guest's reading of the seed, the kubeconfigs its
     * Configure and Drain will use; then the seed and the VM are removed.
     */
    private List<PreflightStep> nocloud(Placement p, String machineId) {
        PreflightContext context = PreflightContext.of(machineId, STEP_LIMIT, cancelled::get);
        NocloudPreflight check = new NocloudPreflight(api, parts.seedDelivery());
        List<PreflightStep> live = new ArrayList<>();
        backend.usePlan(new PlacementPlan(List.of(p)));
        String[] current = {"clone"};
        long[] since = {System.nanoTime()};
        Optional<OwnedVm> owned = Optional.empty();
        Optional<SeedVolumes.Seed> seed = Optional.empty();
        Optional<String> drive = Optional.empty();
        try {
            CloneSpec spec = new CloneSpec(machineId, p.type(), p.node(), Map.of());
            parts.creator().create(spec, context, (s, placement, vmid, c) -> {
                remember(new VmTarget(machineId, s.zone(), vmid));
                String node = parts.finisher().shape(s, placement, vmid, c);
                remember(new VmTarget(machineId, node, vmid));
                live.add(PreflightStep.pass(
                                "clone",
                                "VM " + node + "/" + vmid + ", "
                                        + p.mode().toString().toLowerCase(Locale.ROOT) + " clone of template "
                                        + p.template().vmid() + newDrives(p) + ", left stopped for its seed")
                        .took(lap(since)));
                return node;
            });
            OwnedVm vm = ownedVmOf(machineId);
            owned = Optional.of(vm);
            current[0] = "seed";
            String hostname = SeedDelivery.nodeName(p.type().name(), machineId);
            String storage = p.bootstrap().seedStorage().orElseThrow();
            seed = Optional.of(check.seeds().seeds().claim(storage, vm.vmid(), context.operationId()));
            drive = Optional.of(check.seeds()
                    .stage(
                            vm,
                            api.config(vm.node(), vm.vmid()),
                            seed.get(),
                            NocloudPreflight.testSeed(vm, hostname, context.operationId()),
                            context));
            live.add(PreflightStep.pass(
                            "seed", "test seed " + seed.get().volid() + " uploaded and attached as " + drive.get())
                    .took(lap(since)));
            current[0] = "start";
            parts.power().start(vm.node(), vm.vmid(), context);
            live.add(PreflightStep.pass("start", "running").took(lap(since)));
            current[0] = "guest";
            live.add(check.guest(vm, hostname, context).took(lap(since)));
            current[0] = "cluster";
            live.add(PreflightStep.pass(
                            "cluster",
                            "its Configure waits for the node, and its Drain drains it, through the cluster's API"
                                    + " with the kubeconfig of each cluster id (" + settings.clusterKubeconfigs()
                                    + ")")
                    .took(lap(since)));
        } catch (BackendException | RuntimeException e) {
            boolean interrupted = cancelled.get() || Thread.currentThread().isInterrupted();
            live.add(PreflightStep.fail(
                            current[0],
                            interrupted
                                    ? "interrupted; the VM it made is destroyed"
                                    : redactor.scrub(String.valueOf(e.getMessage())))
                    .took(lap(since)));
        }
        for (String s : NocloudPreflight.STEPS.subList(live.size(), NocloudPreflight.STEPS.size() - 1)) {
            live.add(PreflightStep.skip(s, "an earlier step failed"));
        }
        since[0] = System.nanoTime();
        if (owned.isPresent() && seed.isPresent()) {
            check.seeds().remove(owned.get(), seed.get(), drive);
        }
        live.add(destroy(machineId).took(lap(since)));
        return live;
    }

    /** The drives the type added to the clone, for the clone step's line; empty when none. */
    private static String newDrives(Placement p) {
        java.util.Set<String> keys = p.shape().newDrives(p.template()).keySet();
        return keys.isEmpty() ? "" : ", with " + String.join(", ", keys) + " allocated";
    }

    /** A guest agent that refuses {@code guest-exec} says what to do about it. */
    static String withHint(String message) {
        return message.contains("guest-exec has been disabled")
                ? message + " (this guest's agent refuses guest-exec, as RHEL 10's does: give the instance type"
                        + " \"bootstrap\": \"nocloud\", which needs no guest command)"
                : message;
    }

    private static final class StepFailed extends RuntimeException {
        private static final long serialVersionUID = 1L;

        StepFailed() {
            super(null, null, false, false);
        }
    }

    private PreflightStep ready(OwnedVm vm, PreflightContext context) throws BackendException {
        if (settings.readyExec().isEmpty()) {
            return PreflightStep.skip("ready", "--ready-exec none: Configure does not wait for the node");
        }
        List<String> probe = settings.readyExec().get();
        if (probe.isEmpty()) {
            return guestCheck(vm, KUBECTL_PRESENT, "ready", "the built-in probe's kubectl", context);
        }
        return guestCheck(vm, dryRun(probe), "ready", "ready hook", context);
    }

    private PreflightStep drain(OwnedVm vm, PreflightContext context) throws BackendException {
        if (settings.drainExec().isEmpty()) {
            return guestCheck(vm, KUBECTL_PRESENT, "drain", "the built-in kubectl drain's kubectl", context);
        }
        List<String> hook = dryRun(settings.drainExec());
        try {
            new Drainer(parts.exec(), hook).drain(vm, DRAIN_GRACE_SECONDS, redactor, context);
        } catch (GuestExec.NotStarted e) {
            return PreflightStep.fail(
                    "drain",
                    "drain hook could not be started (is it in the template?): "
                            + redactor.scrub(String.valueOf(e.getMessage())));
        } catch (BackendException e) {
            if (cancelled.get()) {
                throw e;
            }
            return PreflightStep.fail("drain", redactor.scrub(String.valueOf(e.getMessage())));
        }
        return PreflightStep.pass("drain", "\"" + String.join(" ", hook) + " " + DRAIN_GRACE_SECONDS + "\" exited 0");
    }

    /** Runs {@code argv} once in the guest: exit 0 passes, anything else fails in the program's own words. */
    private PreflightStep guestCheck(OwnedVm vm, List<String> argv, String step, String what, PreflightContext context)
            throws BackendException {
        String shown = argv == KUBECTL_PRESENT ? what : what + " \"" + String.join(" ", argv) + "\"";
        ExecStatus status;
        try {
            status = parts.exec().run(vm.node(), vm.vmid(), argv, PROBE_LIMIT, step + " on VM " + vm.ref(), context);
        } catch (GuestExec.NotStarted e) {
            return PreflightStep.fail(
                    step,
                    shown + " could not be started (is it in the template?): "
                            + redactor.scrub(String.valueOf(e.getMessage())));
        }
        if (status.succeeded()) {
            String out = GuestOutput.tail(redactor.scrub(status.out()));
            return PreflightStep.pass(step, shown + " exited 0" + (out.isBlank() ? "" : ": " + out));
        }
        return PreflightStep.fail(step, shown + " " + GuestExec.failure(status, redactor));
    }

    /**
     * Destroys every VM this pair made (also one whose clone was still running when the run was
     * interrupted: found by the VMID it asked for, once the clone is done) and confirms each is gone
     * from the cluster.
     */
    private PreflightStep destroy(String machineId) {
        boolean wasInterrupted = Thread.interrupted();
        try {
            PreflightContext context = PreflightContext.of(machineId, CLEANUP_LIMIT, () -> false);
            Set<VmTarget> targets = new LinkedHashSet<>();
            made.stream().filter(t -> t.machineId().equals(machineId)).forEach(targets::add);
            targets.addAll(unsettledClones(machineId, context));
            try {
                for (ManagedVm m : parts.inventory().describe()) {
                    if (m.machineId().equals(Optional.of(machineId))) {
                        targets.add(new VmTarget(machineId, m.node(), m.vmid()));
                    }
                }
            } catch (BackendException e) {
                log.warn("preflight: could not list the VMs it may have made: {}", redactor.scrub(e.getMessage()));
            }
            if (targets.isEmpty()) {
                return PreflightStep.pass("destroy", "nothing was made");
            }
            List<String> gone = new ArrayList<>();
            List<String> disksLeft = new ArrayList<>();
            for (VmTarget t : targets) {
                disksLeft.addAll(parts.destroyer().destroy(t, context).disksLeft());
                parts.inventory().forget(t.vmid());
                // another VM holding the VMID by now (it was reused) is not the one made here
                Optional<OwnedVm> left = parts.guard().find("destroy", t);
                if (left.isPresent()) {
                    return PreflightStep.fail(
                            "destroy",
                            "VM " + left.get().ref() + " is still in the cluster after its" + " destroy (status "
                                    + left.get().listing().status() + "); remove it by hand");
                }
                made.remove(t);
                gone.add(t.hostRef());
            }
            String vms = String.join(", ", new LinkedHashSet<>(gone));
            if (!disksLeft.isEmpty()) {
                // the VM is gone, its disks are not: Proxmox's destroy warned and went on
                return PreflightStep.fail(
                        "destroy",
                        "VM " + vms + " is gone but Proxmox left disks behind (" + String.join("; ", disksLeft)
                                + "); remove them by hand");
            }
            return PreflightStep.pass(
                    "destroy", "VM " + vms + " and its disks are gone (the destroy task removed every disk)");
        } catch (BackendException | RuntimeException e) {
            return PreflightStep.fail(
                    "destroy", redactor.scrub(String.valueOf(e.getMessage())) + "; VMs left: " + made);
        } finally {
            if (wasInterrupted || cancelled.get()) {
                cancelled.set(true);
            }
        }
    }

    /**
     * The VMs this run asked Proxmox to clone for {@code machineId} whose outcome it did not see (the
     * run was interrupted while the clone task ran, or its answer was lost). Proxmox finishes such a
     * clone all the same, and until it does the VM is a bare placeholder locked by its clone, with
     * neither the provider's tag nor its description: waits (within the cleanup limit) until each is
     * done, and answers those that turned out to be this machine's.
     */
    private List<VmTarget> unsettledClones(String machineId, PreflightContext context) throws BackendException {
        List<VmTarget> out = new ArrayList<>();
        for (long vmid : parts.journal().vmids(machineId)) {
            parts.locator()
                    .awaitUnlocked(vmid, machineId, context)
                    .ifPresent(at -> out.add(new VmTarget(machineId, at.node(), vmid)));
            parts.journal().end(machineId, vmid);
        }
        return out;
    }

    /**
     * VMs of this provider an earlier run left behind (killed before it could destroy them), found
     * by their {@code preflight-} machine id, destroyed before this run makes any.
     */
    PreflightStep sweepLeftovers() {
        List<VmTarget> left = new ArrayList<>();
        try {
            for (ManagedVm m : parts.inventory().describe()) {
                if (m.machineId().filter(id -> id.startsWith(MACHINE_PREFIX)).isPresent()) {
                    left.add(new VmTarget(m.machineId().get(), m.node(), m.vmid()));
                }
            }
            PreflightContext context = PreflightContext.of("preflight-sweep", CLEANUP_LIMIT, cancelled::get);
            for (VmTarget t : left) {
                parts.destroyer().destroy(t, context);
                parts.inventory().forget(t.vmid());
            }
        } catch (BackendException | RuntimeException e) {
            return PreflightStep.fail("leftovers", redactor.scrub(String.valueOf(e.getMessage())));
        }
        return PreflightStep.pass(
                "leftovers",
                left.isEmpty()
                        ? "no VM of an earlier preflight run"
                        : "destroyed VM "
                                + String.join(
                                        ", ",
                                        left.stream().map(VmTarget::hostRef).toList()) + ", left by an earlier run");
    }

    private static List<String> dryRun(List<String> argv) {
        List<String> out = new ArrayList<>(DRY_RUN);
        out.addAll(argv);
        return out;
    }

    /** A VM this run made, to destroy whatever happens, and the last place it is known to be. */
    private void remember(VmTarget target) {
        made.add(target);
        latest.put(target.machineId(), target);
    }

    /** The preflight VM made for {@code machineId} where it was last seen, checked to be still ours. */
    private OwnedVm ownedVmOf(String machineId) throws BackendException {
        VmTarget target = latest.get(machineId);
        if (target == null) {
            throw new BackendException("preflight: no VM was made for " + machineId);
        }
        return parts.guard().require("preflight", target);
    }

    private static Duration lap(long[] since) {
        long now = System.nanoTime();
        Duration d = Duration.ofNanos(now - since[0]);
        since[0] = now;
        return d;
    }

    /** Done: nothing is left to destroy, so Ctrl-C from now on has nothing to wait for. */
    @Override
    public void close() {
        cleaned.countDown();
        try {
            Runtime.getRuntime().removeShutdownHook(onShutdown);
        } catch (IllegalStateException e) {
            // the JVM is shutting down: the hook is running and waited for this
        }
    }
}
