package dev.bigfleet.proxmox.server.config;

import java.util.Objects;
import java.util.Optional;

/** The HTTP surface (probes, metrics, admin page): its address, or none when {@code --metrics-addr} is empty. */
public record HttpConfig(Optional<ListenAddress> address) {
    public HttpConfig {
        Objects.requireNonNull(address, "address");
    }
}
