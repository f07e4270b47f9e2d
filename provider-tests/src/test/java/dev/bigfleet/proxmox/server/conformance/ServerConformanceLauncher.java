package dev.bigfleet.proxmox.server.conformance;

import dev.bigfleet.proxmox.conformance.target.ConformanceServerLauncher;
import dev.bigfleet.proxmox.conformance.target.LaunchedServer;
import dev.bigfleet.proxmox.conformance.target.Profile;
import dev.bigfleet.proxmox.testing.TestingProvider;
import java.util.List;

/**
 * Runs the conformance suite against this build: a {@link TestingProvider} in this JVM on the fake
 * backend; the durable profile's provider is a process of its own ({@link DurableProvider}).
 */
public final class ServerConformanceLauncher implements ConformanceServerLauncher {
    static List<String> argsFor(Profile profile) {
        List<String> common = List.of("--fake-latency", "20ms");
        if (profile == Profile.FAULT) {
            return concat(
                    common,
                    List.of(
                            "--fake-faults",
                            "--transition-timeout",
                            "2s",
                            "--seed-count",
                            "400",
                            "--reconcile-interval",
                            "300ms"));
        }
        return concat(common, List.of("--seed-count", "2000", "--reconcile-interval", "300ms"));
    }

    private static List<String> concat(List<String> a, List<String> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
    }

    @Override
    public LaunchedServer start(Profile profile) throws Exception {
        if (profile == Profile.DURABLE) {
            return DurableProvider.start();
        }
        TestingProvider provider =
                TestingProvider.builder().flags(argsFor(profile)).build();
        return new LaunchedServer() {
            @Override
            public String target() {
                return provider.target();
            }

            @Override
            public void close() {
                provider.close();
            }
        };
    }
}
