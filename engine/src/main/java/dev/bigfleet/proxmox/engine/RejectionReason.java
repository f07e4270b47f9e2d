package dev.bigfleet.proxmox.engine;

/** Why the engine refused a request; the gRPC adapter maps each reason to one status code. */
public enum RejectionReason {
    /** The request's shape is invalid or over a documented limit. */
    INVALID_ARGUMENT,
    /** The shard token is not strictly newer than the mark; the only use of FAILED_PRECONDITION. */
    FENCED,
    NOT_FOUND,
    /** The machine is not in a state this call may start from, or a retry conflicts with the operation in place. */
    CONFLICT,
    /** The change could not be made durable; nothing was acknowledged. */
    UNAVAILABLE
}
