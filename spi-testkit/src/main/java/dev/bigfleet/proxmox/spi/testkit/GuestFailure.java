package dev.bigfleet.proxmox.spi.testkit;

import java.util.Objects;

/**
 * A guest command a {@link BackendFixture} arranged to fail: the cluster id the contract test must
 * configure (and drain) the machine with for the failure to happen, and the exit code the guest
 * command will end with.
 */
public record GuestFailure(String clusterId, int exitCode) {
    public GuestFailure {
        Objects.requireNonNull(clusterId, "clusterId");
        if (clusterId.isBlank()) {
            throw new IllegalArgumentException("clusterId must not be blank");
        }
        if (exitCode == 0) {
            throw new IllegalArgumentException("a failing guest command exits non-zero");
        }
    }
}
