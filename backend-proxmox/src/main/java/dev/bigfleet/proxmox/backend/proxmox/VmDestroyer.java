package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.backend.proxmox.client.PveApiException;
import dev.bigfleet.proxmox.backend.proxmox.client.PveClient;
import dev.bigfleet.proxmox.backend.proxmox.client.TaskStatus;
import dev.bigfleet.proxmox.backend.proxmox.client.Upid;
import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.OperationContext;
import dev.bigfleet.proxmox.spi.VmTarget;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delete: find the VM by VMID, prove it is the machine's, hard-stop it, destroy it with
 * {@code purge=1} and {@code destroy-unreferenced-disks=1}, and wait. A VM that is already gone,
 * or vanishes along the way, counts as destroyed; so does one whose VMID another VM holds by then
 * (that VM is left untouched).
 */
final class VmDestroyer {
    private static final Logger log = LoggerFactory.getLogger(VmDestroyer.class);

    /** More than a destroy of a VM with every disk a drive slot allows logs. */
    private static final int TASK_LOG_LINES = 1000;

    /** How long the fate of a destroy request whose answer was lost is waited for. */
    static final Duration LOST_ANSWER_LIMIT = Duration.ofSeconds(30);

    private static final Polling AFTER_LOST_ANSWER = new Polling(Duration.ofMillis(500), Duration.ofSeconds(5));

    private final PveClient api;
    private final OwnershipGuard guard;
    private final TaskWaiter tasks;

    VmDestroyer(PveClient api, OwnershipGuard guard, TaskWaiter tasks) {
        this.api = api;
        this.guard = guard;
        this.tasks = tasks;
    }

    /** @return whether a VM was destroyed, and the disks Proxmox could not remove with it */
    DestroyedVm destroy(VmTarget target, OperationContext context) throws BackendException {
        VmLookup found = guard.lookup("delete", target);
        if (found.owned().isEmpty()) {
            log.info("VM {} of machine {} is already gone ({})", target.hostRef(), target.machineId(), found.absence());
            return DestroyedVm.NONE;
        }
        OwnedVm vm = found.owned().get();
        if (!vm.listing().status().equals("stopped")) {
            // running, or not yet sampled: a stop of a stopped VM is a harmless no-op
            if (!stop(vm, target, context)) {
                return DestroyedVm.NONE;
            }
        }
        Optional<Upid> upid = requestDestroy(vm, target, context);
        if (upid.isEmpty()) {
            return DestroyedVm.NONE;
        }
        TaskStatus status = tasks.await(upid.get(), "destroy VM " + vm.ref(), context);
        if (!status.succeeded() && present(target)) {
            throw new BackendException("destroy VM " + vm.ref() + ": task failed: " + status.failure());
        }
        List<String> disksLeft = status.warned() ? disksLeft(upid.get()) : List.of();
        if (disksLeft.isEmpty()) {
            log.info("destroyed VM {} of machine {}", vm.ref(), vm.machineId());
        } else {
            log.warn(
                    "destroyed VM {} of machine {}, but Proxmox left {} of its disks on their storage: {}",
                    vm.ref(),
                    vm.machineId(),
                    disksLeft.size(),
                    String.join("; ", disksLeft));
        }
        return new DestroyedVm(true, disksLeft);
    }

    /** The lines of a destroy's task log that name a disk it could not remove; none if the log cannot be read. */
    private List<String> disksLeft(Upid upid) {
        try {
            return api.taskLog(upid, TASK_LOG_LINES).stream()
                    .filter(line -> line.startsWith("Could not remove disk"))
                    .toList();
        } catch (PveApiException e) {
            log.warn("destroy task {} ended with warnings, and its log cannot be read: {}", upid, e.getMessage());
            return List.of("the destroy task ended with warnings (its log could not be read: " + e.getMessage() + ")");
        }
    }

    /** @return false when the VM turned out to be gone already */
    private boolean stop(OwnedVm vm, VmTarget target, OperationContext context) throws BackendException {
        Upid upid;
        try {
            upid = api.stop(vm.node(), vm.vmid());
        } catch (PveApiException e) {
            if (e.vmMissing()) {
                return false;
            }
            throw new BackendException("stop VM " + vm.ref() + ": " + e.getMessage(), e);
        }
        TaskStatus status = tasks.await(upid, "stop VM " + vm.ref(), context);
        if (!status.succeeded()) {
            if (!present(target)) {
                return false;
            }
            throw new BackendException("stop VM " + vm.ref() + ": task failed: " + status.failure());
        }
        return true;
    }

    /**
     * Sends the destroy. A VM refused as running (its listed status lagged behind a start) is
     * stopped and the destroy sent once more. A request whose answer was lost is never sent again
     * as it was: it may have destroyed the VM, and the VMID it freed may already be another VM's,
     * which the same request would reach. Whether the machine's VM is gone is read instead.
     *
     * @return the destroy task, or empty when the VM turned out to be gone
     */
    private Optional<Upid> requestDestroy(OwnedVm vm, VmTarget target, OperationContext context)
            throws BackendException {
        boolean stopped = false;
        while (true) {
            try {
                return Optional.of(api.destroy(vm.node(), vm.vmid()));
            } catch (PveApiException e) {
                if (e.vmMissing()) {
                    return Optional.empty();
                }
                if (answerLost(e)) {
                    awaitGone(vm, target, e, context);
                    return Optional.empty();
                }
                if (!stopped && e.mentions("is running")) {
                    stopped = true;
                    if (!stop(vm, target, context)) {
                        return Optional.empty();
                    }
                    continue;
                }
                throw new BackendException("destroy VM " + vm.ref() + ": " + e.getMessage(), e);
            }
        }
    }

    /**
     * After a destroy request whose answer was lost: waits a while for the machine's VM to be gone
     * (the request went through, and its task ends). One still there is a transient failure: the
     * retry proves once more whose VM holds the VMID before it sends anything.
     */
    private void awaitGone(OwnedVm vm, VmTarget target, PveApiException lost, OperationContext context)
            throws BackendException {
        Optional<Boolean> gone = AFTER_LOST_ANSWER.until(
                Instant.now().plus(LOST_ANSWER_LIMIT),
                context,
                () -> present(target) ? Optional.empty() : Optional.of(true));
        if (gone.isEmpty()) {
            throw BackendException.transientFailure(
                    "destroy VM " + vm.ref() + ": the answer to the destroy request was lost (" + lost.getMessage()
                            + ") and the VM is still there after " + LOST_ANSWER_LIMIT.toSeconds()
                            + "s; whose VM holds VMID " + vm.vmid() + " is checked again before it is destroyed",
                    lost);
        }
        log.info(
                "destroyed VM {} of machine {} (the answer to its destroy request was lost; the VM is gone)",
                vm.ref(),
                vm.machineId());
    }

    /** The request may have been carried out: no answer came back, or a gateway's error came in its place. */
    private static boolean answerLost(PveApiException e) {
        return e.outcomeUnknown()
                || e.isStatus(502)
                || e.isStatus(504)
                || (e.kind() == PveApiException.Kind.HTTP && e.status() >= 596 && e.status() <= 599);
    }

    /** Whether the machine's VM is still there: a VM holding its VMID that is not its own does not count. */
    private boolean present(VmTarget target) throws BackendException {
        return guard.find("delete: re-check VM " + target.hostRef(), target).isPresent();
    }
}
