package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.spi.testkit.BackendContractTest;
import dev.bigfleet.proxmox.spi.testkit.BackendFixture;
import dev.bigfleet.proxmox.spi.testkit.TestBlob;
import org.junit.jupiter.api.AfterAll;

/** The SPI contract, on the real backend against the Proxmox API simulator over HTTPS. */
class ProxmoxBackendContractTest extends BackendContractTest {
    @Override
    protected BackendFixture newFixture() {
        return new ProxmoxFixture();
    }

    @AfterAll
    static void nothingSecretWasLogged() {
        Leaks.assertNoneLogged();
        CapturedLog.lines().forEach(TestBlob::assertNotQuoted);
    }
}
