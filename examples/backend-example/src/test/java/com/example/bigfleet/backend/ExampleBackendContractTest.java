package com.example.bigfleet.backend;

import dev.bigfleet.proxmox.spi.testkit.BackendContractTest;
import dev.bigfleet.proxmox.spi.testkit.BackendFixture;

/** The provider's SPI contract, run against this plugin in its own build. */
class ExampleBackendContractTest extends BackendContractTest {
    @Override
    protected BackendFixture newFixture() throws Exception {
        return new ExampleFixture();
    }
}
