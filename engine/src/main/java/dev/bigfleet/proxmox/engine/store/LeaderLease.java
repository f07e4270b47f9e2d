package dev.bigfleet.proxmox.engine.store;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Leader election in the shared store: one lease with a strictly increasing epoch. The store's
 * clock decides expiry, so the replicas' clocks do not have to agree.
 */
public interface LeaderLease {
    /**
     * Takes the lease for {@code duration} if nobody holds it or its holder let it expire; a new,
     * higher epoch is minted every time, and from then on the previous holder's writes fail.
     *
     * @param name how the other replicas and callers name this replica
     * @return the epoch acquired, or empty while another replica holds the lease
     */
    OptionalLong tryAcquire(String name, Duration duration) throws StoreException;

    /** Extends this replica's lease; false when another replica has taken it since. */
    boolean renew(long epoch, Duration duration) throws StoreException;

    /** Lets the lease expire now (a graceful stop), so a standby need not wait for it. */
    void release(long epoch);

    /** Who holds the lease, as far as the store says; empty if nobody ever did. */
    Optional<LeaseHolder> holder() throws StoreException;

    /** The holder of the lease: its name, the epoch it leads in, and whether its lease is still running. */
    record LeaseHolder(String name, long epoch, boolean current) {}
}
