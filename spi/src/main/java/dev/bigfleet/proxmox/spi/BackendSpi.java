package dev.bigfleet.proxmox.spi;

/**
 * The version of this SPI. A factory returns {@link #VERSION} from {@link
 * ProxmoxBackendFactory#spiVersion()}; being a compile-time constant, the number is the one the
 * plugin was compiled against, so the host can refuse a plugin built for an SPI it does not speak.
 *
 * <p>The number changes only when the SPI changes incompatibly (a method removed or changed, a
 * contract tightened). Additions that old plugins need not know about (a default method, a new
 * optional capability) keep it; the build's API-compatibility check guards that.
 */
public final class BackendSpi {
    /** This SPI's version. */
    public static final int VERSION = 1;

    private BackendSpi() {}
}
