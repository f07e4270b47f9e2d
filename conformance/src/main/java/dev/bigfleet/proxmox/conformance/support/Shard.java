package dev.bigfleet.proxmox.conformance.support;

import java.util.UUID;

/**
 * A shard identity owned by one test. Marks are kept per (shard_id, machine_id) and never
 * deleted, so every test takes its own UUID-named shard: marks left by one test (or by an
 * earlier run against the same server) can never fence another.
 */
public final class Shard {
    private final String id;

    private Shard(String id) {
        this.id = id;
    }

    public static Shard fresh() {
        return new Shard("conformance-" + UUID.randomUUID());
    }

    public String id() {
        return id;
    }

    public Token at(long epoch, long sequence) {
        return new Token(id, epoch, sequence);
    }

    @Override
    public String toString() {
        return id;
    }
}
