package dev.bigfleet.proxmox.server;

import java.util.Optional;

/** A started provider: its bound ports, and the way to stop it. */
public final class RunningProvider implements AutoCloseable {
    private final ProviderRuntime runtime;

    RunningProvider(ProviderRuntime runtime) {
        this.runtime = runtime;
    }

    public int grpcPort() {
        return runtime.grpcPort();
    }

    public Optional<Integer> httpPort() {
        return runtime.httpPort();
    }

    /** Graceful stop, as on SIGTERM. */
    @Override
    public void close() {
        runtime.stop();
    }
}
