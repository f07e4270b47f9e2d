/**
 * The backend SPI: what a Proxmox backend implements and how the provider finds it.
 *
 * <p>{@link dev.bigfleet.proxmox.spi.ProxmoxBackendFactory} is the entry point (found with {@link
 * java.util.ServiceLoader}); {@link dev.bigfleet.proxmox.spi.ProxmoxBackend} is the substrate the
 * lifecycle engine drives. Every verb's contract (idempotency, deadlines, errors) is on its Javadoc;
 * the {@code spi-testkit} module holds contract tests a backend runs in its own build. This package
 * depends on {@code dev.bigfleet.proxmox.api} and nothing else.
 */
package dev.bigfleet.proxmox.spi;
