package dev.bigfleet.proxmox.ctl;

import picocli.CommandLine.Option;

/** The optional fence token of a mutation: all three options or none. */
final class FenceToken {
    @Option(names = "--shard-id", required = true, paramLabel = "ID", description = "Fence token: shard id.")
    String shardId;

    @Option(names = "--epoch", required = true, paramLabel = "N", description = "Fence token: shard epoch.")
    long epoch;

    @Option(names = "--seq", required = true, paramLabel = "N", description = "Fence token: sequence number.")
    long sequence;

    static final FenceToken NONE = new FenceToken();

    static FenceToken orNone(FenceToken token) {
        return token == null ? NONE : token;
    }

    String shardId() {
        return shardId == null ? "" : shardId;
    }
}
