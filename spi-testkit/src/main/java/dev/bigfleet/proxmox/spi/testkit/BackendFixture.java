package dev.bigfleet.proxmox.spi.testkit;

import dev.bigfleet.proxmox.spi.ApiCallRecorder;
import dev.bigfleet.proxmox.spi.CloneSpec;
import dev.bigfleet.proxmox.spi.CreatedVm;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import java.io.IOException;
import java.time.Duration;

/**
 * What a backend author provides so {@link BackendContractTest} can drive their backend: how to build
 * it, a Create it can satisfy, and the hooks that set scenes up behind the backend's back, on the
 * substrate itself (a simulator, an in-memory model, a test cluster), the way an operator, a crash
 * or a misbehaving guest would.
 *
 * <p>{@link BackendContractTest} asks for a fresh fixture before every test and closes it after, so
 * each test starts on a substrate of its own: no VM of another test is in it.
 */
public interface BackendFixture extends AutoCloseable {
    /**
     * Builds the backend under test, reporting its calls to {@code apiCalls}; called once per test,
     * after any {@link #slowDownCreates} of that test. The test closes it.
     */
    ProxmoxBackend createBackend(ApiCallRecorder apiCalls) throws Exception;

    /**
     * A Create for {@code machineId} that the backend can satisfy: an instance type it can clone,
     * on a zone (node) that exists.
     */
    CloneSpec cloneSpec(String machineId);

    /** Powers the VM off without asking the backend, as an operator or a crashed host would. */
    void stopVm(CreatedVm vm) throws Exception;

    /** Whether the VM is running, as the substrate (not the backend) sees it; false when it is gone. */
    boolean isRunning(CreatedVm vm) throws Exception;

    /** Whether the VM still exists on the substrate, as the substrate (not the backend) sees it. */
    boolean exists(CreatedVm vm) throws Exception;

    /**
     * Arranges that the bootstrap hook of {@code vm}'s guest exits non-zero.
     *
     * @return the cluster id to configure the machine with and the exit code the hook will end with
     */
    GuestFailure failBootstrap(CreatedVm vm) throws Exception;

    /**
     * Arranges that draining {@code vm}'s node fails (its drain command exits non-zero), while its
     * bootstrap still succeeds.
     *
     * @return the cluster id to configure and drain the machine with, and the drain's exit code
     */
    GuestFailure failDrain(CreatedVm vm) throws Exception;

    /**
     * Arranges that a Create of the backend takes at least {@code atLeast} unless cancelled, so the
     * contract can cancel one in flight. Called before {@link #createBackend} in the same test.
     *
     * @return false when the substrate cannot be slowed down; the cancellation test is then skipped
     */
    default boolean slowDownCreates(Duration atLeast) throws Exception {
        return false;
    }

    /** A VMID that no VM of the substrate has, for destroying a VM that never existed. */
    default long absentVmid() {
        return 999_999;
    }

    /** Releases the substrate (stops a simulator, deletes files). */
    @Override
    default void close() throws IOException {}
}
