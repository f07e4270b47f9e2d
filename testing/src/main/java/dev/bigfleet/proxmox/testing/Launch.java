package dev.bigfleet.proxmox.testing;

/** Where a {@link TestingProvider} runs. */
public enum Launch {
    /** The real {@code main} wiring in the test's JVM ({@code ProviderMain.start}): quickest to start. */
    IN_THIS_JVM,
    /**
     * {@code ProviderMain} in a JVM of its own on the test's class path, tuned to start quickly: a
     * provider the test can SIGKILL, SIGSTOP and start again.
     */
    OWN_JVM,
    /** {@code bin/proxmox} as an operator runs it (after {@code mvn package}), with its class-data archive. */
    LAUNCHER
}
