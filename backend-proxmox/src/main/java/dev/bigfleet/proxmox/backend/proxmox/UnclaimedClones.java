package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.backend.proxmox.client.ClusterResource;
import dev.bigfleet.proxmox.backend.proxmox.client.PveApiException;
import dev.bigfleet.proxmox.backend.proxmox.client.PveClient;
import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.OperationContext;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Clones already running when this process first listed the cluster, which it did not start: after
 * a restart, one of them may be the clone of a Create the restart interrupted. While a clone runs,
 * Proxmox shows only a bare {@code lock: clone} placeholder (name and description come when it is
 * done), so whose it is cannot be told yet. A Create that finds no VM of its machine waits for these
 * to finish before it clones, and then finds its own among them instead of cloning a second VM.
 * Once they have settled, nothing waits again.
 */
final class UnclaimedClones {
    private static final Polling POLLING = new Polling(Duration.ofMillis(250), Duration.ofSeconds(2));

    private final PveClient api;
    private final CloneJournal journal;
    /** VMIDs still to settle; null until the first listing. */
    private Set<Long> pending;

    UnclaimedClones(PveClient api, CloneJournal journal) {
        this.api = api;
        this.journal = journal;
    }

    /**
     * Waits until every clone that was running at this process's first listing has finished.
     *
     * @param listed the caller's listing of the cluster
     * @return whether it waited: the caller's listing is then stale
     */
    boolean awaitSettled(List<ClusterResource> listed, OperationContext context) throws BackendException {
        Set<Long> waitFor;
        synchronized (this) {
            if (pending == null) {
                pending = new HashSet<>();
                for (ClusterResource r : listed) {
                    if (cloning(r) && !journal.started(r.vmid())) {
                        pending.add(r.vmid());
                    }
                }
            }
            pending.removeIf(vmid -> listed.stream().noneMatch(r -> r.vmid() == vmid && cloning(r)));
            if (pending.isEmpty()) {
                return false;
            }
            waitFor = Set.copyOf(pending);
        }
        Optional<Boolean> settled = POLLING.until(Instant.MAX, context, () -> {
            try {
                List<ClusterResource> now = api.vmResources();
                return now.stream().anyMatch(r -> waitFor.contains(r.vmid()) && cloning(r))
                        ? Optional.empty()
                        : Optional.of(true);
            } catch (PveApiException e) {
                if (e.isTransient()) {
                    return Optional.empty();
                }
                throw new BackendException("wait for clones started before this provider: " + e.getMessage(), e);
            }
        });
        if (settled.isEmpty()) {
            throw new BackendException("clones of VMIDs " + new TreeSet<>(waitFor) + ", running since before the"
                    + " provider started, were still running at the transition deadline; one may be this machine's");
        }
        synchronized (this) {
            pending.removeAll(waitFor);
        }
        return true;
    }

    private static boolean cloning(ClusterResource r) {
        return r.isQemu() && r.lock().filter("clone"::equals).isPresent();
    }
}
