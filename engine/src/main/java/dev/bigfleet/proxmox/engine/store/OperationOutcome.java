package dev.bigfleet.proxmox.engine.store;

/** How an operation in a machine's history stands: still running, or how it ended. */
public enum OperationOutcome {
    /** Accepted and not ended yet (a restart that drives it on keeps it running). */
    RUNNING,
    SUCCESS,
    /** The backend failed it; the record's error says why. */
    ERROR,
    /** Its deadline passed first. */
    TIMEOUT,
    /** A provider restart stopped it and it could not go on (a Configure: its blob is never kept). */
    INTERRUPTED
}
