package dev.bigfleet.proxmox.server;

import dev.bigfleet.proxmox.engine.Interruption;
import dev.bigfleet.proxmox.engine.LifecycleEngine;
import dev.bigfleet.proxmox.engine.store.LeaderLease;
import dev.bigfleet.proxmox.engine.store.SharedStateStore;
import dev.bigfleet.proxmox.engine.store.StoreException;
import dev.bigfleet.proxmox.engine.store.StoreWrite;
import dev.bigfleet.proxmox.server.config.SharedState;
import dev.bigfleet.proxmox.server.serving.ServingState;
import dev.bigfleet.proxmox.server.startup.ErrorMessages;
import dev.bigfleet.proxmox.server.startup.StartupException;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One replica among several on a shared store. As a standby it follows the leader's commits into
 * the engine's view and tries to take the lease every {@code --leader-renew}; once it holds the
 * lease it catches up, takes over (interrupted transitions as after a restart) and serves. As the
 * leader it renews the lease, and steps down (standby again, its view read afresh) when a renewal
 * or a write finds another replica leading, or when it could not renew for a whole lease. Everything
 * runs on one thread, so following, taking over and stepping down never overlap.
 */
final class ReplicaCoordinator {
    private static final Logger log = LoggerFactory.getLogger(ReplicaCoordinator.class);
    /** How often a standby looks for the leader's new commits. */
    static final Duration FOLLOW_INTERVAL = Duration.ofMillis(100);

    /** What the runtime does once this replica leads and serves. */
    interface Duties {
        void started(boolean fromStore);
    }

    private final SharedStateStore store;
    private final LeaderLease lease;
    private final LifecycleEngine engine;
    private final InventoryLoader inventory;
    private final ServingState serving;
    private final Duration leaseDuration;
    private final Duration renew;
    private final Duties duties;
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "replica");
        t.setDaemon(true);
        return t;
    });
    private String name = "";
    /** The epoch this replica leads under; 0 while it stands by. Written on {@link #thread}, and by {@link #stop}. */
    private volatile long epoch;

    private long lastRenewedNanos;
    private boolean everLed;

    ReplicaCoordinator(
            SharedStateStore store,
            LifecycleEngine engine,
            InventoryLoader inventory,
            ServingState serving,
            SharedState config,
            Duties duties) {
        this.store = store;
        this.lease = store.lease();
        this.engine = engine;
        this.inventory = inventory;
        this.serving = serving;
        this.leaseDuration = config.lease();
        this.renew = config.renew();
        this.duties = duties;
    }

    /** Starts standing by as {@code name} (how callers and the other replicas name this one). */
    @SuppressWarnings("FutureReturnValueIgnored") // both tasks catch everything themselves
    void start(String name) {
        this.name = name;
        serving.standingBy(0, Optional.empty());
        thread.scheduleWithFixedDelay(this::leaseTick, 0, renew.toMillis(), TimeUnit.MILLISECONDS);
        thread.scheduleWithFixedDelay(
                this::followTick, FOLLOW_INTERVAL.toMillis(), FOLLOW_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Stops electing; a leader finishes its queued writes and lets its lease go, so a standby need not wait. */
    void stop() {
        thread.shutdownNow();
        try {
            thread.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        long leading = epoch;
        epoch = 0;
        if (leading != 0) {
            try {
                store.write(StoreWrite.marksOnlyNone()).get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                log.warn("the last writes before stepping down did not finish: {}", ErrorMessages.rootCause(e));
            }
            lease.release(leading);
            log.info("released the leader lease (epoch {})", leading);
        }
    }

    private void leaseTick() {
        try {
            if (epoch == 0) {
                tryToLead();
            } else {
                renewLease();
            }
        } catch (RuntimeException e) {
            log.error("leader election failed", e);
        }
    }

    private void followTick() {
        if (epoch != 0) {
            return;
        }
        try {
            store.follow(engine.follower());
        } catch (StoreException | RuntimeException e) {
            log.warn("following the leader's changes failed: {}", e.getMessage());
        }
    }

    private void tryToLead() {
        Optional<LeaderLease.LeaseHolder> before;
        OptionalLong acquired;
        try {
            before = lease.holder();
            acquired = lease.tryAcquire(name, leaseDuration);
        } catch (StoreException e) {
            log.warn("cannot reach the leader lease: {}", e.getMessage());
            return;
        }
        if (acquired.isEmpty()) {
            ServingState.Leadership now = serving.leadership();
            Optional<String> leader =
                    before.filter(LeaderLease.LeaseHolder::current).map(LeaderLease.LeaseHolder::name);
            long leaderEpoch = before.map(LeaderLease.LeaseHolder::epoch).orElse(0L);
            if (!now.leader().equals(leader) || now.epoch() != leaderEpoch) {
                serving.standingBy(leaderEpoch, leader);
            }
            return;
        }
        takeOver(acquired.getAsLong(), before);
    }

    private void takeOver(long newEpoch, Optional<LeaderLease.LeaseHolder> before) {
        long started = System.nanoTime();
        lastRenewedNanos = started;
        Interruption interruption = (before.isPresent() && !before.get().name().equals(name)) || everLed
                ? Interruption.FAILOVER
                : Interruption.RESTART;
        log.info(
                "took the leader lease (epoch {}) from {}; catching up",
                newEpoch,
                before.map(LeaderLease.LeaseHolder::name).orElse("nobody"));
        boolean fromStore;
        try {
            store.follow(engine.follower()); // everything the previous leader committed, none after
            store.lead(newEpoch, () -> onThread(() -> stepDown(newEpoch, "a write found another replica leading")));
            epoch = newEpoch;
            fromStore = inventory.prepare(interruption);
        } catch (StoreException | StartupException | RuntimeException e) {
            log.error("taking over failed: {}", ErrorMessages.rootCause(e));
            epoch = newEpoch;
            stepDown(newEpoch, "taking over failed");
            lease.release(newEpoch);
            return;
        }
        renewLease();
        if (epoch != newEpoch) {
            return; // deposed while taking over
        }
        everLed = true;
        serving.leading(newEpoch, name);
        serving.markReady();
        log.info(
                "leading (epoch {}) after {} ms; serving CapacityProvider",
                newEpoch,
                (System.nanoTime() - started) / 1_000_000);
        duties.started(fromStore);
    }

    private void onThread(Runnable task) {
        try {
            thread.execute(task);
        } catch (java.util.concurrent.RejectedExecutionException stopping) {
            // the provider is stopping: nothing is left to step down from
        }
    }

    private void renewLease() {
        long leading = epoch;
        long now = System.nanoTime();
        try {
            if (lease.renew(leading, leaseDuration)) {
                lastRenewedNanos = now;
                return;
            }
            stepDown(leading, "another replica took the lease");
        } catch (StoreException e) {
            if (now - lastRenewedNanos >= leaseDuration.toNanos()) {
                stepDown(leading, "the lease could not be renewed for " + leaseDuration.toMillis() + " ms");
            } else {
                log.warn("renewing the leader lease failed (trying again): {}", e.getMessage());
            }
        }
    }

    /** Stops serving at once; the view is read afresh, since it may hold what never became durable. */
    private void stepDown(long from, String why) {
        if (epoch != from || from == 0) {
            return;
        }
        epoch = 0;
        store.stopLeading();
        serving.standingBy(from, Optional.empty());
        int abandoned = engine.abandonRunningTransitions();
        store.followFromStart();
        log.warn(
                "stepped down as leader (epoch {}): {}; {} running transitions left to the next leader",
                from,
                why,
                abandoned);
    }
}
