package dev.bigfleet.proxmox.spi.testkit;

import java.util.Set;

/**
 * A way a backend can break the SPI's contract, and exactly the contract tests that then fail: the
 * ones guarding against it, and those whose scenario runs into it on the way.
 */
enum Defect {
    CLONES_AGAIN(
            "aSecondCreateForTheSameMachineReturnsTheSameVmAndClonesOnce",
            "aStoppedVmIsAdoptedByTheNextCreateAndRunsAgain"),
    LEAVES_STOPPED_VMS_STOPPED(
            "ensureRunningStartsAStoppedVmAndKeepsARunningOneRunning",
            "configureBringsAStoppedVmUpAndASucceedingHookConfiguresIt",
            "aStoppedVmIsAdoptedByTheNextCreateAndRunsAgain"),
    FAILS_TO_DESTROY_A_MISSING_VM("destroyingAVmThatIsAlreadyGoneSucceeds"),
    FAILS_TO_DESTROY_A_VM_WHOSE_VMID_WAS_REUSED("aVmOfAnotherMachineIsNeitherStartedNorDestroyed"),
    IGNORES_OWNERSHIP(
            "aVmOfAnotherMachineIsNeitherStartedNorDestroyed",
            "aVmOfAnotherMachineGetsNoBootstrapNoDrainAndNoReadinessWait",
            "whenBindingsAreKeptDescribeReportsABindingUntilItIsCleared"),
    HIDES_THE_EXIT_CODE("aHookThatExitsNonZeroFailsNamingItsExitCodeWithoutTheBlob"),
    QUOTES_THE_BLOB("aHookThatExitsNonZeroFailsNamingItsExitCodeWithoutTheBlob"),
    WRITES_MESSAGES_ON_SEVERAL_LINES(
            "aHookThatExitsNonZeroFailsNamingItsExitCodeWithoutTheBlob",
            "ensureRunningOfAVmThatDoesNotExistFails",
            "aDrainThatFailsFailsTheCall",
            "aVmOfAnotherMachineIsNeitherStartedNorDestroyed",
            "aVmOfAnotherMachineGetsNoBootstrapNoDrainAndNoReadinessWait",
            "whenBindingsAreKeptDescribeReportsABindingUntilItIsCleared"),
    IGNORES_A_FAILED_DRAIN("aDrainThatFailsFailsTheCall"),
    NEVER_READY("whenReadinessIsOfferedABootstrappedNodeBecomesReady", "everyCallIsReportedUnderABoundedOpName"),
    IGNORES_CANCELLATION(
            "anAlreadyCancelledCallFailsFastAndCreatesNothing", "anInFlightCreateStopsSoonAfterItIsCancelled"),
    NAMES_OPS_AFTER_MACHINES("everyCallIsReportedUnderABoundedOpName"),
    REPORTS_NO_CALLS("everyCallIsReportedUnderABoundedOpName");

    @SuppressWarnings("ImmutableEnumChecker") // Set.of is unmodifiable
    private final Set<String> caughtBy;

    Defect(String... caughtBy) {
        this.caughtBy = Set.of(caughtBy);
    }

    /** The contract tests that fail on a backend with this defect. */
    Set<String> caughtBy() {
        return caughtBy;
    }
}
