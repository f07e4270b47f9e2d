package dev.bigfleet.proxmox.server.conformance;

import dev.bigfleet.proxmox.conformance.target.ConformanceServerLauncher;
import dev.bigfleet.proxmox.conformance.target.LaunchedServer;
import dev.bigfleet.proxmox.conformance.target.Profile;
import dev.bigfleet.proxmox.server.ProviderMain;
import dev.bigfleet.proxmox.server.RunningProvider;
import java.util.List;

/**
 * Runs the conformance suite against this build: the real {@code main} wiring on ephemeral loopback
 * ports, on the fake backend.
 */
public final class ServerConformanceLauncher implements ConformanceServerLauncher {
    static List<String> argsFor(Profile profile) {
        List<String> common = List.of(
                "--addr",
                "127.0.0.1:0",
                "--metrics-addr",
                "127.0.0.1:0",
                "--proxmox-backend",
                "fake",
                "--fake-latency",
                "20ms");
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
            return DurableProviderProcess.start();
        }
        RunningProvider provider = ProviderMain.start(argsFor(profile).toArray(String[]::new));
        return new LaunchedServer() {
            @Override
            public String target() {
                return "127.0.0.1:" + provider.grpcPort();
            }

            @Override
            public void close() {
                provider.close();
            }
        };
    }
}
