package dev.bigfleet.proxmox.conformance.support;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.bigfleet.proxmox.conformance.target.Profile;
import dev.bigfleet.proxmox.conformance.target.Targets;
import org.junit.jupiter.api.BeforeEach;

/**
 * Base of the core-profile test classes: skips (not fails) when no core endpoint is known, and
 * hands each test the shared client.
 */
public abstract class CoreConformance {
    protected ProviderClient client;

    @BeforeEach
    void requireCoreTarget() {
        assumeTrue(Targets.of(Profile.CORE).isPresent(), "no core endpoint (set " + Profile.CORE.property() + ")");
        client = ProviderClient.of(Profile.CORE);
    }

    /** A fresh SPECULATIVE machine nobody in this run has touched. */
    protected String freshMachine() {
        return MachinePool.claimSpeculative(client);
    }
}
