package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.backend.proxmox.client.ExecStatus;
import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.OperationContext;
import java.time.Duration;

/**
 * Drain's guest side: {@code kubectl drain} of the guest's node bounded by the grace period, waited
 * for the grace period plus a margin; a non-zero exit fails the Drain (no {@code || true}).
 */
final class Drainer {
    /** Time for kubectl to start, talk to the API server and report after its own timeout. */
    static final Duration MARGIN = Duration.ofSeconds(60);

    private final GuestExec exec;

    Drainer(GuestExec exec) {
        this.exec = exec;
    }

    void drain(OwnedVm vm, long gracePeriodSeconds, Redactor redactor, OperationContext context)
            throws BackendException {
        Duration limit = Duration.ofSeconds(Math.max(1, gracePeriodSeconds)).plus(MARGIN);
        ExecStatus status = exec.run(
                vm.node(), vm.vmid(), GuestScripts.drain(gracePeriodSeconds), limit, "drain VM " + vm.ref(), context);
        if (!status.succeeded()) {
            throw new BackendException("kubectl drain on VM " + vm.ref() + " " + GuestExec.failure(status, redactor));
        }
    }
}
