package dev.bigfleet.proxmox.conformance.target;

/** A provider started for the suite. */
public interface LaunchedServer extends AutoCloseable {
    /** The gRPC endpoint, {@code host:port}. */
    String target();

    @Override
    void close();
}
