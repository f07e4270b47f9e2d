package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.backend.proxmox.client.ExecStatus;
import dev.bigfleet.proxmox.backend.proxmox.client.PveApiException;
import dev.bigfleet.proxmox.backend.proxmox.client.PveClient;
import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.OperationContext;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Runs a program in the guest through the agent and waits for it, polling the exit status soon
 * and then with growing pauses (not every 100 ms for minutes), within a limit and the deadline.
 * The program runs on in the guest whatever the API does, so polls the API could not answer are
 * simply repeated: an outage is waited out. A failure is transient only when the program was
 * certainly not started; once the exec was sent, every failure is definite (it must not run twice).
 */
final class GuestExec {
    private static final Polling POLLING = new Polling(Duration.ofMillis(100), Duration.ofSeconds(2));

    private final PveClient api;

    GuestExec(PveClient api) {
        this.api = api;
    }

    /**
     * @param what how failures are prefixed, e.g. {@code run bootstrap on VM pve1/105}
     * @param limit how long the program may run
     * @return the final status; the caller decides what a non-zero exit means
     */
    ExecStatus run(String node, long vmid, List<String> argv, Duration limit, String what, OperationContext context)
            throws BackendException {
        long pid;
        try {
            pid = api.agentExec(node, vmid, argv);
        } catch (PveApiException e) {
            // transient only when it never reached the guest (see PveApiException.isTransient)
            throw ApiFailures.wrap(what + ": agent exec: " + e.getMessage(), e);
        }
        long start = System.nanoTime();
        boolean[] answerLost = {false};
        String[] unanswered = {null};
        Optional<ExecStatus> exited = POLLING.until(Instant.now().plus(limit), context, () -> {
            ExecStatus status;
            try {
                status = api.agentExecStatus(node, vmid, pid);
            } catch (PveApiException e) {
                if (e.isTransient()) {
                    // the poll did not reach the agent, so the exit status is still there to be read
                    unanswered[0] = e.getMessage();
                    return Optional.empty();
                }
                if (e.outcomeUnknown() && !answerLost[0]) {
                    // the agent may have reported the exit in the answer we lost; ask once more
                    answerLost[0] = true;
                    return Optional.empty();
                }
                if (answerLost[0] && e.mentions("invalid parameter")) {
                    throw new BackendException(
                            what + ": the exit status was lost (the answer carrying it did not"
                                    + " arrive and the guest agent has forgotten pid " + pid + ")",
                            e);
                }
                throw new BackendException(what + ": agent exec-status: " + e.getMessage(), e);
            }
            unanswered[0] = null;
            return status.exited() ? Optional.of(status) : Optional.empty();
        });
        return exited.orElseThrow(() -> new BackendException(what + ": "
                + (unanswered[0] != null
                        ? "exit status unknown at the limit (" + limit.toSeconds() + "s) or the transition deadline: "
                                + unanswered[0]
                        : "still running after "
                                + Duration.ofNanos(System.nanoTime() - start).toSeconds() + "s (limit "
                                + limit.toSeconds() + "s or the transition deadline)")));
    }

    /** {@code exited with code 1: <stderr tail>} or {@code killed by signal 9}. */
    static String failure(ExecStatus status, Redactor redactor) {
        String detail = status.err().isBlank() ? status.out() : status.err();
        String head = status.signal().isPresent()
                ? "killed by signal " + status.signal().getAsInt()
                : "exited with code " + status.exitCode().orElse(-1);
        String tail = GuestOutput.tail(redactor.scrub(detail));
        return tail.isEmpty() ? head : head + ": " + tail;
    }
}
