package dev.bigfleet.proxmox.spi.testkit;

import dev.bigfleet.proxmox.spi.CreatedVm;
import dev.bigfleet.proxmox.spi.ManagedVm;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.spi.VmTarget;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * What the contract tests stand on: a fresh {@link BackendFixture} per test, the backend built from
 * it on first use, the calls it reported, and small helpers to make and address VMs.
 */
public abstract class BackendContractSupport {
    /** How soon an in-flight call must stop once its context is cancelled and its thread interrupted. */
    protected static final Duration CANCELLATION_BOUND = Duration.ofSeconds(5);
    /** How slow the fixture makes a Create for the cancellation test. */
    protected static final Duration SLOW_CREATE = Duration.ofSeconds(30);

    /** The cluster id the contract configures and drains nodes in. */
    protected static final String CLUSTER = "contract-cluster";

    private final ApiCallLog apiCalls = new ApiCallLog();
    private BackendFixture fixture;
    private ProxmoxBackend backend;

    /** A fixture on a substrate of its own; called before every test. */
    protected abstract BackendFixture newFixture() throws Exception;

    @BeforeEach
    final void openFixture() throws Exception {
        fixture = newFixture();
    }

    @AfterEach
    final void closeFixture() throws Exception {
        try {
            if (backend != null) {
                backend.close();
            }
        } finally {
            if (fixture != null) {
                fixture.close();
            }
        }
    }

    protected final BackendFixture fixture() {
        return fixture;
    }

    /** The backend under test, built on first use (after any slow-down the test arranged). */
    protected final ProxmoxBackend backend() throws Exception {
        if (backend == null) {
            backend = fixture.createBackend(apiCalls);
        }
        return backend;
    }

    /** The calls the backend reported. */
    protected final ApiCallLog apiCalls() {
        return apiCalls;
    }

    protected final CreatedVm create(String machine) throws Exception {
        return backend().cloneAndStart(fixture.cloneSpec(machine), context(machine));
    }

    /** The VMs the backend reports as carrying {@code machine}'s id. */
    protected final List<ManagedVm> managedBy(String machine) throws Exception {
        return backend().describeManaged().stream()
                .filter(vm -> vm.machineId().equals(Optional.of(machine)))
                .toList();
    }

    protected static VmTarget target(String machine, CreatedVm vm) {
        return new VmTarget(machine, vm.node(), vm.vmid());
    }

    protected static TestOperationContext context(String machine) {
        return TestOperationContext.forMachine(machine);
    }

    @FunctionalInterface
    interface ContractCall<T> {
        T run() throws Exception;
    }

    @FunctionalInterface
    interface CancelledCall {
        void run(TestOperationContext cancelled) throws Exception;
    }
}
