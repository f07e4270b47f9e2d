package dev.bigfleet.proxmox.backend.proxmox.client;

/**
 * A task id, {@code UPID:<node>:<pid>:<pstart>:<starttime>:<type>:<id>:<user>:}. The node is where
 * the task runs (for a clone: the template's node), which is where its status must be polled.
 */
public record Upid(String value, String node, String type) {
    /** @throws PveApiException when Proxmox answered something that is not a UPID */
    static Upid parse(String op, String value) {
        String[] parts = value.split(":", -1);
        if (parts.length < 8 || !parts[0].equals("UPID") || parts[1].isEmpty()) {
            throw PveApiException.transport(
                    op, PveApiException.Kind.MALFORMED, "the answer is not a task id (UPID)", null);
        }
        return new Upid(value, parts[1], parts[5]);
    }

    @Override
    public String toString() {
        return value;
    }
}
