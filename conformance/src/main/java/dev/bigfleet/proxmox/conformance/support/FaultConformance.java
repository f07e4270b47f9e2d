package dev.bigfleet.proxmox.conformance.support;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.bigfleet.proxmox.conformance.target.Profile;
import dev.bigfleet.proxmox.conformance.target.Targets;
import org.junit.jupiter.api.BeforeEach;

/**
 * Base of the fault-profile test classes: skips (not fails) when no fault endpoint is known. The
 * fault server injects failures selected by the request (see {@link FaultSelectors}).
 */
public abstract class FaultConformance {
    protected ProviderClient client;

    @BeforeEach
    void requireFaultTarget() {
        assumeTrue(Targets.of(Profile.FAULT).isPresent(), "no fault endpoint (set " + Profile.FAULT.property() + ")");
        client = ProviderClient.of(Profile.FAULT);
    }
}
