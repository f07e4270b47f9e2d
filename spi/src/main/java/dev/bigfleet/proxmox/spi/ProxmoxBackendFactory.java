package dev.bigfleet.proxmox.spi;

/**
 * Creates a backend. Implementations are found with {@link java.util.ServiceLoader}: a jar lists
 * its factory in {@code META-INF/services/dev.bigfleet.proxmox.spi.ProxmoxBackendFactory} and is
 * selected with {@code --proxmox-backend <name()>}.
 */
public interface ProxmoxBackendFactory {
    /** The name operators select this backend by; lower case, no spaces. */
    String name();

    /**
     * Builds the backend, validating its own settings.
     *
     * @throws IllegalArgumentException with a one-line message naming the bad setting
     */
    ProxmoxBackend create(BackendContext context) throws Exception;
}
