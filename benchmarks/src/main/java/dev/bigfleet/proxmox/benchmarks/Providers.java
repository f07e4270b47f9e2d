package dev.bigfleet.proxmox.benchmarks;

import dev.bigfleet.proxmox.testing.Launch;
import dev.bigfleet.proxmox.testing.ProviderProcess;
import dev.bigfleet.proxmox.testing.TestingProvider;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The provider as the whole-process benchmarks run it: {@code bin/proxmox} (with its class-data
 * archive) through {@link TestingProvider}, on the fake backend with no latency, its log in a file.
 */
final class Providers {
    private static final Duration READY = Duration.ofMinutes(5);

    private Providers() {}

    /** Starts {@code bin/proxmox} with {@code extra} flags and returns once it serves. */
    static TestingProvider start(Path log, String... extra) throws Exception {
        return TestingProvider.builder()
                .launch(Launch.LAUNCHER)
                .fakeLatency(Duration.ZERO)
                .logTo(log)
                .flags(extra)
                .build();
    }

    /** Waits for {@code /readyz} 200; returns the seconds since the process was started. */
    static double readySeconds(TestingProvider provider) throws InterruptedException {
        if (!provider.replica(0).awaitReady(READY)) {
            throw new IllegalStateException("the provider did not become ready");
        }
        return process(provider).secondsSinceStart();
    }

    /** CPU seconds the process has used so far. */
    static double cpuSeconds(TestingProvider provider) {
        return process(provider).cpuSeconds();
    }

    private static ProviderProcess process(TestingProvider provider) {
        return provider.replica(0).process().orElseThrow();
    }
}
