package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.backend.proxmox.client.ExecStatus;
import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.OperationContext;
import java.time.Duration;
import java.util.List;

/**
 * Drain's guest side: {@code kubectl drain} of the guest's node bounded by the grace period (or the
 * template's drain hook, {@code --drain-exec}, given that bound), waited for the grace period plus
 * a margin; a non-zero exit fails the Drain (no {@code || true}).
 */
final class Drainer {
    /** Time for kubectl to start, talk to the API server and report after its own timeout. */
    static final Duration MARGIN = Duration.ofSeconds(60);

    private final GuestExec exec;
    private final List<String> drainExec;

    /** @param drainExec the drain hook's argv; empty for the built-in {@code kubectl drain} */
    Drainer(GuestExec exec, List<String> drainExec) {
        this.exec = exec;
        this.drainExec = List.copyOf(drainExec);
    }

    void drain(OwnedVm vm, long gracePeriodSeconds, Redactor redactor, OperationContext context)
            throws BackendException {
        Duration limit = Duration.ofSeconds(Math.max(1, gracePeriodSeconds)).plus(MARGIN);
        ExecStatus status = exec.run(
                vm.node(),
                vm.vmid(),
                GuestScripts.drain(gracePeriodSeconds, drainExec),
                limit,
                "drain VM " + vm.ref(),
                context);
        if (!status.succeeded()) {
            String what = drainExec.isEmpty() ? "kubectl drain" : "drain hook \"" + String.join(" ", drainExec) + "\"";
            throw new BackendException(what + " on VM " + vm.ref() + " " + GuestExec.failure(status, redactor));
        }
    }
}
