package dev.bigfleet.proxmox.packaging.image;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Starts the image's process as a container runtime does: the image's entrypoint, user,
 * environment and working directory, a read-only root filesystem, a state directory mounted as a
 * volume and a fresh tmpfs on {@code /tmp}. The returned process is the provider's (or a
 * runtime's that passes signals on), so {@link Process#destroy()} is a SIGTERM to the provider.
 */
interface ContainerRuntime {
    /** The mount point of the state volume in the image. */
    String STATE_VOLUME = "/var/lib/bigfleet-proxmox";

    String name();

    Process start(List<String> args, Path state, Path log) throws IOException;
}
