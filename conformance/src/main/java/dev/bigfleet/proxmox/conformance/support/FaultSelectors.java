package dev.bigfleet.proxmox.conformance.support;

/**
 * The wire-driven fault selectors a fault-profile server honours ({@code --fake-faults}). They
 * ride on ordinary request fields, so the suite needs no side channel into the server.
 */
public final class FaultSelectors {
    /** Configure fails: the machine ends FAILED with a last_error. */
    public static final String CONFIGURE_ERROR = "fault-error";
    /** Configure blocks until the transition timeout: FAILED with a timeout-shaped last_error. */
    public static final String CONFIGURE_TIMEOUT = "fault-timeout";
    /** Configure succeeds only after the timeout; the late success must be discarded. */
    public static final String CONFIGURE_SLOW_OK = "fault-slow-ok";
    /** Configure succeeds; the following Drain fails. */
    public static final String DRAIN_ERROR = "fault-drain-error";
    /** Configure succeeds but the node never becomes ready: FAILED at the Configure timeout. */
    public static final String READINESS_BLOCK = "fault-readiness-block";

    private FaultSelectors() {}
}
