package dev.bigfleet.proxmox.pvesim;

import java.util.Map;

/** The error answers the simulator gives, worded as Proxmox VE words them. */
final class Errors {
    private Errors() {}

    static ApiException param(String name, String reason) {
        return params(Map.of(name, reason));
    }

    static ApiException params(Map<String, String> errors) {
        return new ApiException(400, "Parameter verification failed.", errors, false);
    }

    static ApiException handler(String message) {
        return new ApiException(500, message, null, false);
    }

    /**
     * An error pveproxy answers itself ({@code $self->error}): the message is the status line's
     * reason and, as plain text, the body.
     */
    static ApiException httpServer(int status, String message) {
        return ApiException.plainText(status, message);
    }

    static ApiException noTicket() {
        return new ApiException(401, "No ticket", null, true);
    }

    static ApiException authFailed() {
        return new ApiException(401, "Authentication failed!", null, true);
    }

    static ApiException notImplemented(String method, String path) {
        return new ApiException(501, "Method '" + method + " " + path + "' not implemented", null, false);
    }

    static ApiException unexpectedContent(String method) {
        return new ApiException(501, "Unexpected content for method '" + method + "'", null, false);
    }

    static ApiException nodeUnreachable() {
        return new ApiException(595, "No route to host", null, true);
    }

    static ApiException unknownNode(String node) {
        return handler("hostname lookup '" + node + "' failed - failed to get address info for: " + node
                + ": Name or service not known");
    }

    static String configMissing(String node, int vmid) {
        return "Configuration file 'nodes/" + node + "/qemu-server/" + vmid + ".conf' does not exist";
    }

    static ApiException noSuchVm(String node, int vmid) {
        return handler(configMissing(node, vmid));
    }

    static String locked(String lock) {
        return "VM is locked (" + lock + ")";
    }

    static String qgaFailed(int vmid, String command, String reason) {
        return "VM " + vmid + " qga command '" + command + "' failed - " + reason;
    }
}
