package dev.bigfleet.proxmox.engine;

import dev.bigfleet.proxmox.api.FenceToken;

/**
 * The lowest shard epoch the provider accepts, whatever its fence marks say: the operator's answer to
 * marks that were lost with the state (a state file rebuilt from the cluster, an older backup). A
 * zombie shard's stale epoch would otherwise be accepted by a machine that no longer remembers the
 * newer one. A token whose epoch is below the floor is refused as fenced; tokens without a shard id
 * are not fenced, as always.
 *
 * @param minEpoch tokens with a lower {@code shard_epoch} are refused; {@link Long#MIN_VALUE} for none
 */
public record FenceFloor(long minEpoch) {
    public static final FenceFloor NONE = new FenceFloor(Long.MIN_VALUE);

    /** Whether {@code token} is below the floor. */
    boolean refuses(FenceToken token) {
        return !token.bypassesFencing() && token.epoch() < minEpoch;
    }
}
