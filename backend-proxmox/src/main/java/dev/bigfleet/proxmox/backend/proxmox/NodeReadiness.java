package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.backend.proxmox.client.ExecStatus;
import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.OperationContext;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Configure's last step: the node is Ready. A probe ({@code --ready-exec}, else {@link #BUILT_IN})
 * runs in the guest over the agent until it exits 0, with a growing pause between runs, within the
 * Configure's deadline. A probe that exits non-zero, an agent that does not answer and an API outage
 * are waited out; a probe the guest cannot even start (exec refused, or a shell saying the hook is
 * not there or not executable: 126, 127, dash's 2 with "cannot open") fails at once, since waiting will not put it in the
 * template. What the last probe printed, scrubbed, is in the failure.
 */
final class NodeReadiness {
    /**
     * The built-in probe: the kubelet's own health endpoint (when curl is installed) and the node's
     * Ready condition as the API server reports it, asked with the kubelet's credential.
     */
    static final List<String> BUILT_IN = List.of(
            "/bin/sh",
            "-c",
            "set -u; kc=/etc/kubernetes/kubelet.conf; node=\"$(hostname)\";"
                    + " [ -f \"$kc\" ] || { echo \"node $node has not joined: $kc is missing\" >&2; exit 1; };"
                    + " if command -v curl >/dev/null 2>&1; then curl -fsS --max-time 5 http://127.0.0.1:10248/healthz"
                    + " >/dev/null || { echo \"the kubelet of $node is not healthy (127.0.0.1:10248/healthz)\" >&2; exit 1; }; fi;"
                    + " ready=\"$(kubectl --kubeconfig \"$kc\" get node \"$node\""
                    + " -o 'jsonpath={.status.conditions[?(@.type==\"Ready\")].status}')\" || exit 1;"
                    + " [ \"$ready\" = True ] || { echo \"node $node is not Ready (Ready=${ready:-unknown})\" >&2; exit 1; }");
    /** How long one probe may run. */
    static final Duration PROBE_LIMIT = Duration.ofSeconds(30);

    /**
     * The wait ends this long before the Configure's deadline, so that the failure names the probe's
     * last words instead of a bare timeout.
     */
    static final Duration MARGIN = Duration.ofSeconds(3);

    /** Less time than this left before the wait ends: no further probe is started. */
    static final Duration MIN_PROBE = Duration.ofSeconds(1);

    private static final String NONE_FINISHED = "no probe finished";

    private static final Polling BETWEEN_PROBES = new Polling(Duration.ofSeconds(1), Duration.ofSeconds(15));

    private final GuestExec exec;
    private final List<String> probe;
    private final boolean builtIn;

    /** @param readyExec the probe's argv; empty for {@link #BUILT_IN} */
    NodeReadiness(GuestExec exec, List<String> readyExec) {
        this.exec = exec;
        this.builtIn = readyExec.isEmpty();
        this.probe = builtIn ? BUILT_IN : List.copyOf(readyExec);
    }

    private String name() {
        return builtIn ? "the built-in readiness probe" : "ready hook \"" + String.join(" ", probe) + "\"";
    }

    void await(OwnedVm vm, Redactor redactor, OperationContext context) throws BackendException {
        String what = "wait for the node of VM " + vm.ref() + " to be Ready";
        String[] last = {NONE_FINISHED};
        Instant end = context.deadline().minus(MARGIN);
        Optional<Boolean> ready = BETWEEN_PROBES.until(end, context, () -> {
            Duration left = Duration.between(Instant.now(), end);
            Duration limit = left.compareTo(PROBE_LIMIT) < 0 ? left : PROBE_LIMIT;
            ExecStatus status;
            try {
                status = exec.run(
                        vm.node(), vm.vmid(), probe, limit.isNegative() ? Duration.ZERO : limit, what, context);
            } catch (GuestExec.NotStarted e) {
                throw new BackendException(
                        name() + " could not be started in VM " + vm.ref() + " (is it in the template?): "
                                + redactor.scrub(String.valueOf(e.getMessage())),
                        e);
            } catch (BackendException e) {
                if (context.isCancelled()) {
                    throw e;
                }
                if (!Instant.now().isBefore(end)) {
                    throw new BackendException("the node of VM " + vm.ref()
                            + " did not become Ready within the Configure timeout; the last probe (" + name() + ") "
                            + (last[0].equals(NONE_FINISHED)
                                    ? redactor.scrub(String.valueOf(e.getMessage()))
                                    : last[0]));
                }
                last[0] = redactor.scrub(String.valueOf(e.getMessage())); // an outage or a lost answer: ask again
                return Optional.empty();
            }
            if (status.succeeded()) {
                return Optional.of(true);
            }
            String failure = GuestExec.failure(status, redactor);
            int code = status.exitCode().orElse(0);
            // a shell's words for a script or program that is not there: 126, 127, or dash's 2 "cannot open"
            boolean missing =
                    code == 126 || code == 127 || (code == 2 && status.err().contains("cannot open"));
            if (status.signal().isEmpty() && missing) {
                throw new BackendException(name() + " is missing or not executable in VM " + vm.ref()
                        + " (check the template): " + failure);
            }
            last[0] = failure;
            return Optional.empty();
        });
        if (ready.isEmpty()) {
            throw new BackendException("the node of VM " + vm.ref()
                    + " did not become Ready within the Configure timeout; the last probe (" + name() + ") "
                    + last[0]);
        }
    }
}
