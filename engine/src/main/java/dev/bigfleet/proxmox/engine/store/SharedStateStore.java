package dev.bigfleet.proxmox.engine.store;

/**
 * A state store that several replicas of one provider share. One replica leads: it holds the
 * {@link #lease()} and writes, and every write it makes is conditional on its lease's epoch still
 * being current, so a deposed leader can never write after a successor took over. The others are
 * standbys: they write nothing and keep their view warm by {@link #follow following} the changes
 * the leader commits.
 */
public interface SharedStateStore extends StateStore {
    /** The lease that says which replica leads. */
    LeaderLease lease();

    /**
     * From now on writes are made under {@code epoch} (one this replica acquired), and fail once
     * another replica has taken the lease; {@code onDeposed} runs (once, on a store thread) when a
     * write finds that it has.
     */
    void lead(long epoch, Runnable onDeposed);

    /** From now on every write fails at once: this replica is a standby. */
    void stopLeading();

    /**
     * Hands {@code follower} every change committed since the last call (since {@link #load} for
     * the first), each changed machine once as it is now, then the counters. Returns how many
     * machines changed.
     */
    int follow(StoreFollower follower) throws StoreException;

    /** The next {@link #follow} hands over everything the store holds: a full resynchronisation. */
    void followFromStart();

    /** How far behind the leader's newest commit the last {@link #follow} found this replica, in seconds. */
    double followLagSeconds();
}
