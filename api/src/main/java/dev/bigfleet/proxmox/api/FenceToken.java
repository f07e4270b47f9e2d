package dev.bigfleet.proxmox.api;

import java.util.Objects;

/**
 * A shard's ordering token on a mutation. Tokens compare by epoch, then sequence, both as signed
 * numbers: (6, -1) is older than (6, 1), and (7, -1) is newer. The all-zero token (no shard, 0, 0)
 * means "not fenced".
 */
public record FenceToken(String shardId, long epoch, long sequence) {
    public static final FenceToken NONE = new FenceToken("", 0, 0);

    public FenceToken {
        Objects.requireNonNull(shardId, "shardId");
    }

    public boolean bypassesFencing() {
        return shardId.isEmpty() && epoch == 0 && sequence == 0;
    }

    /** True when this token is strictly newer than {@code mark}. */
    public boolean isNewerThan(FenceMark mark) {
        return epoch > mark.epoch() || (epoch == mark.epoch() && sequence > mark.sequence());
    }

    public FenceMark asMark() {
        return new FenceMark(epoch, sequence);
    }
}
