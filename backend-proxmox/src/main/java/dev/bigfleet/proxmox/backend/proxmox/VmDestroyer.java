package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.backend.proxmox.client.PveApiException;
import dev.bigfleet.proxmox.backend.proxmox.client.PveClient;
import dev.bigfleet.proxmox.backend.proxmox.client.TaskStatus;
import dev.bigfleet.proxmox.backend.proxmox.client.Upid;
import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.OperationContext;
import dev.bigfleet.proxmox.spi.VmTarget;
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

    private Optional<Upid> requestDestroy(OwnedVm vm, VmTarget target, OperationContext context)
            throws BackendException {
        try {
            return Optional.of(api.destroy(vm.node(), vm.vmid()));
        } catch (PveApiException e) {
            if (e.vmMissing()) {
                return Optional.empty();
            }
            if (e.mentions("is running")) {
                // its listed status lagged behind a start: stop it, then destroy once more
                if (!stop(vm, target, context)) {
                    return Optional.empty();
                }
                try {
                    return Optional.of(api.destroy(vm.node(), vm.vmid()));
                } catch (PveApiException again) {
                    if (again.vmMissing()) {
                        return Optional.empty();
                    }
                    throw new BackendException("destroy VM " + vm.ref() + ": " + again.getMessage(), again);
                }
            }
            throw new BackendException("destroy VM " + vm.ref() + ": " + e.getMessage(), e);
        }
    }

    /** Whether the machine's VM is still there: a VM holding its VMID that is not its own does not count. */
    private boolean present(VmTarget target) throws BackendException {
        return guard.find("delete: re-check VM " + target.hostRef(), target).isPresent();
    }
}
