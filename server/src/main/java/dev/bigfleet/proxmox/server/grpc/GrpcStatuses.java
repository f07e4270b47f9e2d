package dev.bigfleet.proxmox.server.grpc;

import dev.bigfleet.proxmox.engine.RejectedException;
import io.grpc.Status;

/** The one place engine rejections become gRPC codes. FAILED_PRECONDITION means fenced, and only that. */
final class GrpcStatuses {
    private GrpcStatuses() {}

    static Status of(RejectedException e) {
        Status status;
        switch (e.reason()) {
            case INVALID_ARGUMENT:
                status = Status.INVALID_ARGUMENT;
                break;
            case FENCED:
                status = Status.FAILED_PRECONDITION;
                break;
            case NOT_FOUND:
                status = Status.NOT_FOUND;
                break;
            case UNAVAILABLE:
                status = Status.UNAVAILABLE;
                break;
            default:
                status = Status.ABORTED;
                break;
        }
        return status.withDescription(e.getMessage());
    }
}
