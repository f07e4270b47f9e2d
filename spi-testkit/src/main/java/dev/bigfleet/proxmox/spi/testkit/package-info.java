/**
 * Contract tests and fixtures for a backend of the SPI ({@code dev.bigfleet.proxmox.spi}), run in the
 * backend's own build.
 *
 * <p>To use it, depend on {@code dev.bigfleet.proxmox:spi-testkit} in test scope (it brings JUnit 5's
 * API and AssertJ; add {@code junit-jupiter-engine} for your test runner), then:
 *
 * <ol>
 *   <li>implement {@link dev.bigfleet.proxmox.spi.testkit.BackendFixture}: build your backend with the
 *       given {@link dev.bigfleet.proxmox.spi.ApiCallRecorder} (through your factory, as the provider
 *       would), name a {@link dev.bigfleet.proxmox.spi.CloneSpec} it can satisfy, and set scenes up on
 *       your substrate behind the backend's back: stop a VM, tell whether a VM runs or exists, make a
 *       guest's bootstrap hook or drain exit non-zero, optionally make a Create slow;
 *   <li>extend {@link dev.bigfleet.proxmox.spi.testkit.BackendContractTest} and return a fresh fixture
 *       from {@code newFixture()}:
 * </ol>
 *
 * <pre>{@code
 * class MyBackendContractTest extends BackendContractTest {
 *     @Override
 *     protected BackendFixture newFixture() {
 *         return new MyFixture(); // a substrate of its own for each test
 *     }
 * }
 * }</pre>
 *
 * <p>Every test asserts something an operator would notice: idempotent Create and adoption of a
 * stopped VM, Delete of a VM already gone, ensureRunning, bootstrap exit codes, drain, readiness,
 * bindings kept on the VM, refusal of another machine's VM, one-line messages without the blob, cancellation, and bounded op
 * names of the API calls reported. Your own tests of what is particular to your backend use
 * {@link dev.bigfleet.proxmox.spi.testkit.TestOperationContext} for the bounds of a call,
 * {@link dev.bigfleet.proxmox.spi.testkit.BackgroundCall} to cancel one in flight,
 * {@link dev.bigfleet.proxmox.spi.testkit.ApiCallLog} to see what it reported and
 * {@link dev.bigfleet.proxmox.spi.testkit.BackendFailures} to check what a failure tells an operator.
 */
package dev.bigfleet.proxmox.spi.testkit;
