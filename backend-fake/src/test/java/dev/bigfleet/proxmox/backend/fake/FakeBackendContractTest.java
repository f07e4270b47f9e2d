package dev.bigfleet.proxmox.backend.fake;

import dev.bigfleet.proxmox.spi.testkit.BackendContractTest;
import dev.bigfleet.proxmox.spi.testkit.BackendFixture;

/** The SPI contract, on the fake as the server runs it. */
class FakeBackendContractTest extends BackendContractTest {
    @Override
    protected BackendFixture newFixture() {
        return new FakeFixture();
    }
}
