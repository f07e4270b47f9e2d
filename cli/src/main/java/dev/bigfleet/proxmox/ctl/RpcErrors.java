package dev.bigfleet.proxmox.ctl;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;

/** A failed call as one line: its gRPC code, then what the server (or the transport) said. */
final class RpcErrors {
    private RpcErrors() {}

    static String oneLine(StatusRuntimeException e) {
        Status status = e.getStatus();
        StringBuilder line = new StringBuilder(status.getCode().name());
        if (status.getDescription() != null) {
            line.append(": ").append(status.getDescription());
        }
        // a transport failure says why only in its cause ("io exception: Connection refused: ...")
        if (status.getCause() != null && status.getCause().getMessage() != null) {
            line.append(": ").append(status.getCause().getMessage());
        }
        return line.toString().replace('\r', ' ').replace('\n', ' ');
    }
}
