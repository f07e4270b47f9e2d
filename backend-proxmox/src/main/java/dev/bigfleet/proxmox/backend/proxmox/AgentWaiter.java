package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.backend.proxmox.client.PveApiException;
import dev.bigfleet.proxmox.backend.proxmox.client.PveClient;
import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.OperationContext;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Waits until a VM's guest agent answers a ping. Everything that can clear on its own ("agent is
 * not running", "VM is not running" right after a start, agent timeouts, transient API errors)
 * means "not yet"; a config without the agent, a vanished VM or a refused token end the wait.
 */
final class AgentWaiter {
    /**
     * Short pauses: a ping of an agent that is not up yet already waits qemu-server's 3 s for an
     * answer that does not come, which paces the calls; a longer pause after it only adds to the
     * time until the first ping that is answered (measured in BENCHMARKS.md, "Real VMs").
     */
    private static final Polling POLLING = new Polling(Duration.ofMillis(250), Duration.ofMillis(500));

    private final PveClient api;
    private final Duration timeout;

    AgentWaiter(PveClient api, Duration timeout) {
        this.api = api;
        this.timeout = timeout;
    }

    void await(String node, long vmid, OperationContext context) throws BackendException {
        Instant start = Instant.now();
        String[] last = {"no answer yet"};
        PveApiException[] lastFailure = {null};
        Optional<Boolean> answered = POLLING.until(start.plus(timeout), context, () -> {
            try {
                api.agentPing(node, vmid);
                return Optional.of(true);
            } catch (PveApiException e) {
                if (fatal(e)) {
                    throw ApiFailures.wrap(
                            "wait for guest agent on VM " + node + "/" + vmid + ": " + e.getMessage(), e);
                }
                last[0] = e.getMessage();
                lastFailure[0] = e;
                return Optional.empty();
            }
        });
        if (answered.isEmpty()) {
            String message = "wait for guest agent on VM " + node + "/" + vmid + ": no answer after "
                    + Duration.between(start, Instant.now()).toSeconds() + "s (--agent-timeout " + timeout.toSeconds()
                    + "s; last: " + last[0] + ")";
            // when it was the API, not the VM (a 500 about its agent), that did not answer, the agent
            // may well be up: worth another try
            if (lastFailure[0] != null && lastFailure[0].isTransient() && !lastFailure[0].isStatus(500)) {
                throw BackendException.transientFailure(message, lastFailure[0]);
            }
            throw new BackendException(message);
        }
    }

    static boolean fatal(PveApiException e) {
        return e.mentions("no qemu guest agent configured")
                || e.vmMissing()
                || e.isStatus(401)
                || e.isStatus(403)
                || e.kind() == PveApiException.Kind.TLS
                || e.kind() == PveApiException.Kind.INTERRUPTED;
    }
}
