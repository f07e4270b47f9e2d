package dev.bigfleet.proxmox.server.conformance;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.bigfleet.proxmox.conformance.support.ProviderClient;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * Runs the conformance suite's durable behaviours in this JVM against the provider the {@link
 * ServerConformanceLauncher} starts (its state chosen by {@link DurableProvider}'s system
 * properties). Prints one line per test and {@code N passed, N failed, N skipped}; exits 0 iff
 * nothing failed.
 */
public final class DurableConformanceRunner {
    private DurableConformanceRunner() {}

    public static void main(String[] args) {
        int failed;
        try {
            LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                    .selectors(selectClass("dev.bigfleet.proxmox.conformance.behaviour.DurabilityTest"))
                    .build();
            SuiteTally tally = new SuiteTally();
            LauncherFactory.create().execute(request, tally);
            failed = tally.report();
        } finally {
            ProviderClient.closeAll();
        }
        System.exit(failed == 0 ? 0 : 1);
    }
}
