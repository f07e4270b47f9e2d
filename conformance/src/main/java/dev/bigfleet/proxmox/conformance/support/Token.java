package dev.bigfleet.proxmox.conformance.support;

/**
 * A fencing token (shard_id, shard_epoch, sequence_number). {@link #NONE} is the all-zero token
 * that bypasses fencing; most behaviours that are not about fencing use it so they never collide
 * with a mark.
 */
public record Token(String shardId, long epoch, long sequence) {
    public static final Token NONE = new Token("", 0, 0);

    /** Lexicographic (epoch, sequence) order, the fence's notion of "strictly newer". */
    public boolean newerThan(Token other) {
        return epoch > other.epoch || (epoch == other.epoch && sequence > other.sequence);
    }

    @Override
    public String toString() {
        return shardId.isEmpty() && epoch == 0 && sequence == 0
                ? "(no token)"
                : "(" + shardId + " e=" + epoch + " s=" + sequence + ")";
    }
}
