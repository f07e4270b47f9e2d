package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.backend.proxmox.client.PveApiException;
import dev.bigfleet.proxmox.backend.proxmox.client.PveClient;
import dev.bigfleet.proxmox.backend.proxmox.client.TaskStatus;
import dev.bigfleet.proxmox.backend.proxmox.client.Upid;
import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.OperationContext;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Waits for a Proxmox task (clone, start, stop, destroy) on the node that runs it, polling soon
 * and then less often, within the transition's deadline. A task runs on whatever the API does, so
 * polls the API could not answer are repeated: an outage is waited out.
 */
final class TaskWaiter {
    private static final Polling POLLING = new Polling(Duration.ofMillis(200), Duration.ofSeconds(2));

    private final PveClient api;

    TaskWaiter(PveClient api) {
        this.api = api;
    }

    /**
     * @return the finished task's status (check {@link TaskStatus#succeeded()})
     * @throws BackendException when polling fails, the deadline passes or the transition is cancelled
     */
    TaskStatus await(Upid upid, String what, OperationContext context) throws BackendException {
        String[] unanswered = {null};
        return POLLING.until(Instant.MAX, context, () -> {
                    TaskStatus status;
                    try {
                        status = api.taskStatus(upid);
                    } catch (PveApiException e) {
                        if (e.isTransient()) {
                            unanswered[0] = e.getMessage();
                            return Optional.empty();
                        }
                        throw new BackendException(what + ": task status: " + e.getMessage(), e);
                    }
                    unanswered[0] = null;
                    return status.running() ? Optional.empty() : Optional.of(status);
                })
                .orElseThrow(() -> new BackendException(what + ": task " + upid.type()
                        + (unanswered[0] == null
                                ? " still running at the transition deadline"
                                : " in an unknown state at the transition deadline: " + unanswered[0])));
    }
}
