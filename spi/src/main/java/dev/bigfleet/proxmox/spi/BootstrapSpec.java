package dev.bigfleet.proxmox.spi;

import java.util.Objects;

/**
 * What Configure delivers. {@code bootstrapBlob} is a credential: never log it, persist it or put it
 * in an exception message.
 */
public final class BootstrapSpec {
    private final VmTarget target;
    private final String clusterId;
    private final byte[] bootstrapBlob;

    public BootstrapSpec(VmTarget target, String clusterId, byte[] bootstrapBlob) {
        this.target = Objects.requireNonNull(target, "target");
        this.clusterId = Objects.requireNonNull(clusterId, "clusterId");
        this.bootstrapBlob = bootstrapBlob.clone();
    }

    public VmTarget target() {
        return target;
    }

    public String clusterId() {
        return clusterId;
    }

    public byte[] bootstrapBlob() {
        return bootstrapBlob.clone();
    }

    @Override
    public String toString() {
        return "BootstrapSpec[target=" + target + ", clusterId=" + clusterId + ", blob=<" + bootstrapBlob.length
                + " bytes>]";
    }
}
