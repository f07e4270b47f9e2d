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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a program in the guest through the agent and waits for it, polling the exit status soon
 * and then with growing pauses (not every 100 ms for minutes), within a limit and the deadline.
 * The program runs on in the guest whatever the API does, so polls the API could not answer are
 * simply repeated: an outage is waited out. A failure is transient only when the program was
 * certainly not started; once the exec was sent, every failure is definite (it must not run twice).
 *
 * <p>What the real agent does shapes the rest. Proxmox pings the agent before every command and
 * answers {@code QEMU guest agent is not running} when the ping gets no answer in 3 s (the agent is
 * busy with another client, or restarting): nothing was sent, so the exec is sent again and a poll
 * is repeated. A command that got no answer in time ({@code got timeout}) may still have been
 * carried out: an exec may have started, an exit status may have been reported into the void (the
 * agent tells an exit once, then forgets the pid). A pid the agent no longer knows although no
 * answer was lost means the agent restarted under the program.
 */
final class GuestExec {
    private static final Polling POLLING = new Polling(Duration.ofMillis(100), Duration.ofSeconds(2));

    /** A definite failure to start the program: the API or the agent answered with a refusal. */
    static final class NotStarted extends BackendException {
        private static final long serialVersionUID = 1L;

        NotStarted(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * Whether the program ran, and how it ended, is unknown: the exec's answer was lost (it may have
     * started, now or later), or its exit status was (told in an answer that never arrived, or
     * forgotten by an agent that restarted). Definite: a program that must not run twice is not sent
     * again; one that may ({@link #runAgain}) is.
     */
    static final class OutcomeUnknown extends BackendException {
        private static final long serialVersionUID = 1L;

        OutcomeUnknown(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** Sends of a program that may run twice, at most, when each one's outcome is unknown. */
    static final int SENDS = 3;

    private static final Logger log = LoggerFactory.getLogger(GuestExec.class);

    private final PveClient api;

    GuestExec(PveClient api) {
        this.api = api;
    }

    /** Proxmox's answer when the ping before a command got no answer: the command was not sent. */
    static boolean agentNotAnswering(PveApiException e) {
        return e.isStatus(500) && e.mentions("qemu guest agent is not running");
    }

    /** Proxmox's answer when a command was sent and its answer did not come in time. */
    static boolean agentTimedOut(PveApiException e) {
        return e.isStatus(500) && e.mentions("failed - got timeout");
    }

    /**
     * Like {@link #run}, for a program that does no harm when it runs more than once, even at once or
     * one run long after another (it only creates what is absent, reads, or removes what is there):
     * when a send's outcome is unknown it is sent again, up to {@link #SENDS} times within {@code
     * limit}.
     */
    ExecStatus runAgain(
            String node, long vmid, List<String> argv, Duration limit, String what, OperationContext context)
            throws BackendException {
        Instant end = Instant.now().plus(limit);
        for (int send = 1; ; send++) {
            try {
                return run(node, vmid, argv, Duration.between(Instant.now(), end), what, context);
            } catch (OutcomeUnknown e) {
                if (send >= SENDS || !Instant.now().isBefore(end)) {
                    throw e;
                }
                log.info("{}; sending it again (it may run more than once): {}", what, e.getMessage());
            }
        }
    }

    /**
     * @param what how failures are prefixed, e.g. {@code run bootstrap on VM pve1/105}
     * @param limit how long the program may run
     * @return the final status; the caller decides what a non-zero exit means
     */
    ExecStatus run(String node, long vmid, List<String> argv, Duration limit, String what, OperationContext context)
            throws BackendException {
        long pid = start(node, vmid, argv, limit, what, context);
        long start = System.nanoTime();
        boolean[] answerLost = {false};
        String[] unanswered = {null};
        Optional<ExecStatus> exited = POLLING.until(Instant.now().plus(limit), context, () -> {
            ExecStatus status;
            try {
                status = api.agentExecStatus(node, vmid, pid);
            } catch (PveApiException e) {
                if (e.isTransient() || agentNotAnswering(e)) {
                    // the poll did not reach the agent, so the exit status is still there to be read
                    unanswered[0] = e.getMessage();
                    return Optional.empty();
                }
                if (e.outcomeUnknown() || agentTimedOut(e)) {
                    // the agent may have reported the exit in the answer we lost; ask again
                    answerLost[0] = true;
                    unanswered[0] = e.getMessage();
                    return Optional.empty();
                }
                if (e.mentions("invalid parameter")) {
                    throw new OutcomeUnknown(
                            what + ": "
                                    + (answerLost[0]
                                            ? "the exit status was lost (the answer carrying it did not arrive and"
                                                    + " the guest agent has forgotten pid " + pid + ")"
                                            : "the guest agent no longer knows pid " + pid + " (it restarted while"
                                                    + " the program ran, or the guest did), so how the program"
                                                    + " ended is unknown"),
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

    /**
     * Sends the exec; while the agent does not answer Proxmox's ping (busy, restarting) nothing is
     * sent, so it is sent again until the limit. Only a failure that certainly started nothing is
     * transient.
     */
    private long start(String node, long vmid, List<String> argv, Duration limit, String what, OperationContext context)
            throws BackendException {
        PveApiException[] last = {null};
        Optional<Long> pid = POLLING.until(Instant.now().plus(limit), context, () -> {
            try {
                return Optional.of(api.agentExec(node, vmid, argv));
            } catch (PveApiException e) {
                if (agentNotAnswering(e)) {
                    last[0] = e;
                    return Optional.empty();
                }
                String message = what + ": agent exec: " + e.getMessage();
                if (e.isTransient()) {
                    // it never reached the guest (see PveApiException.isTransient)
                    throw BackendException.transientFailure(message, e);
                }
                if (e.outcomeUnknown() || agentTimedOut(e)) {
                    // sent, and no answer: the program may run
                    throw new OutcomeUnknown(message, e);
                }
                // an answer that refuses (the agent cannot run it, the VM is gone): nothing started
                throw new NotStarted(message, e);
            }
        });
        if (pid.isEmpty()) {
            // the program was never sent: the whole step may be tried again
            throw BackendException.transientFailure(
                    what + ": agent exec: " + (last[0] == null ? "no answer" : last[0].getMessage()), last[0]);
        }
        return pid.get();
    }

    /**
     * {@code exited with code 1: <stderr tail>} or {@code killed by signal 9}; when the agent cut
     * the output it quotes, the tail is of what it kept, and the message says so.
     */
    static String failure(ExecStatus status, Redactor redactor) {
        boolean fromErr = !status.err().isBlank();
        String detail = fromErr ? status.err() : status.out();
        boolean cut = fromErr ? status.errTruncated() : status.outTruncated();
        String head = status.signal().isPresent()
                ? "killed by signal " + status.signal().getAsInt()
                : "exited with code " + status.exitCode().orElse(-1);
        if (cut) {
            head += " (the guest agent kept only the first 16 MiB of its " + (fromErr ? "stderr" : "stdout")
                    + "; the end of what is quoted is not the end of what it wrote)";
        }
        String tail = GuestOutput.tail(redactor.scrub(detail));
        return tail.isEmpty() ? head : head + ": " + tail;
    }
}
