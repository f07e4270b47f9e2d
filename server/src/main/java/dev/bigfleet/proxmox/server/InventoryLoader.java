package dev.bigfleet.proxmox.server;

import dev.bigfleet.proxmox.api.GoDuration;
import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.engine.ClusterRebuild;
import dev.bigfleet.proxmox.engine.Interruption;
import dev.bigfleet.proxmox.engine.InventorySeeder;
import dev.bigfleet.proxmox.engine.LifecycleEngine;
import dev.bigfleet.proxmox.engine.RestartOutcome;
import dev.bigfleet.proxmox.engine.StoreFailure;
import dev.bigfleet.proxmox.engine.store.StateStore;
import dev.bigfleet.proxmox.engine.store.StoreException;
import dev.bigfleet.proxmox.engine.store.StoredCounters;
import dev.bigfleet.proxmox.server.startup.ErrorMessages;
import dev.bigfleet.proxmox.server.startup.StartupException;
import dev.bigfleet.proxmox.spi.ManagedVm;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeException;
import dev.failsafe.Timeout;
import dev.failsafe.TimeoutExceededException;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds the inventory a leader serves: a fresh store is seeded from the offerings and the
 * substrate; a stored one (reloaded after a restart, or followed by a standby that takes over) goes
 * on as it was, interrupted transitions are driven on or failed, offerings added since are rendered
 * and Speculative slots no offering backs are retired.
 */
public final class InventoryLoader {
    private static final Logger log = LoggerFactory.getLogger(InventoryLoader.class);
    static final Duration SEED_TIMEOUT = Duration.ofSeconds(30);

    private final LifecycleEngine engine;
    private final InventorySeeder seeder;
    private final ProxmoxBackend backend;
    private final StateStore store;
    private final ClusterRebuild rebuild;

    @Inject
    public InventoryLoader(
            LifecycleEngine engine,
            InventorySeeder seeder,
            ProxmoxBackend backend,
            StateStore store,
            ClusterRebuild rebuild) {
        this.engine = engine;
        this.seeder = seeder;
        this.backend = backend;
        this.store = store;
        this.rebuild = rebuild;
    }

    /**
     * Puts back what the store holds; a standby stops here and follows. Returns the stored counters,
     * or empty when the store is fresh.
     */
    Optional<StoredCounters> restore() throws StartupException {
        seeder.slotsById(); // rendered now, while a durable store may still be reading its file
        try {
            Optional<StoredCounters> stored = store.load(engine::restore);
            stored.ifPresent(engine::restored);
            return stored;
        } catch (StoreException e) {
            throw new StartupException(e.getMessage(), e);
        }
    }

    /**
     * Makes the inventory ready to serve, after {@link #restore} (and, on a standby, after it caught
     * up with the leader it replaces).
     *
     * @return whether the inventory came from the store (else it was seeded)
     */
    boolean prepare(Interruption interruption) throws StartupException {
        try {
            Set<String> backed = seeder.slotsById().keySet();
            if (engine.size() == 0 && engine.revision() == 0) {
                List<Machine> seeded = seeder.inventory(describeForSeed());
                engine.addMachines(seeded);
                rebuild.seeded(seeded);
                return false;
            }
            if (interruption != Interruption.FAILOVER) {
                rebuildFromCluster(); // a standby took over the shared store itself: nothing was lost
            }
            RestartOutcome interrupted = engine.resumeInterruptedTransitions(interruption);
            int added = engine.addMachines(seeder.unheld(engine.ids()));
            int retired = engine.retireUnbacked(backed);
            log.info(
                    "state {}: machines={} interrupted_transitions_resumed={} interrupted_configures_failed={}"
                            + " new_slots={} retired_slots={}",
                    interruption == Interruption.FAILOVER ? "taken over" : "reloaded",
                    engine.size(),
                    interrupted.resumed(),
                    interrupted.failed(),
                    added,
                    retired);
            return true;
        } catch (StoreFailure e) {
            throw new StartupException(e.getMessage(), e);
        }
    }

    /**
     * A stored inventory is checked against the cluster before anything is resumed: the store may be
     * an older copy (a restored backup) or may have lost changes the VMs still carry. When the cluster
     * cannot be read now, the stored state is served and the reconciler's first pass rebuilds.
     */
    private void rebuildFromCluster() throws StoreFailure {
        List<ManagedVm> vms;
        try {
            vms = describeForSeed();
        } catch (StartupException e) {
            log.warn(
                    "state not checked against the cluster at startup ({}): the first reconcile pass that reads it will",
                    e.getMessage());
            rebuild.postpone();
            return;
        }
        rebuild.apply(vms);
    }

    private List<ManagedVm> describeForSeed() throws StartupException {
        try {
            return Failsafe.with(Timeout.<List<ManagedVm>>builder(SEED_TIMEOUT)
                            .withInterrupt()
                            .build())
                    .get(backend::describeManaged);
        } catch (TimeoutExceededException e) {
            throw new StartupException(
                    "initial inventory read from the backend took longer than " + GoDuration.format(SEED_TIMEOUT), e);
        } catch (FailsafeException e) {
            throw new StartupException(
                    "initial inventory read from the backend failed: " + ErrorMessages.rootCause(e), e);
        }
    }
}
