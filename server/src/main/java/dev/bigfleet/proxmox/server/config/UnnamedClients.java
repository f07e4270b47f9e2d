package dev.bigfleet.proxmox.server.config;

import java.util.Locale;
import java.util.Optional;

/**
 * Under mTLS, what a client whose certificate names no shard (no {@code bigfleet://shard/} URI)
 * may do ({@code --tls-unnamed-clients}): {@code read} (Get, List, health and reflection; every
 * mutation is refused), or {@code mutate} too, in any shard's name, for operators' tools such as
 * {@code bigfleetctl}.
 */
public enum UnnamedClients {
    READ,
    MUTATE;

    public static Optional<UnnamedClients> parse(String value) {
        try {
            return Optional.of(valueOf(value.trim().toUpperCase(Locale.ROOT)));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    public String flagValue() {
        return name().toLowerCase(Locale.ROOT);
    }
}
