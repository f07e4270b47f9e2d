package dev.bigfleet.proxmox.pvesim;

/** A routed request: path parameters are validated together with the others, as in Proxmox. */
record Call(String method, String path, ValidParams params) {

    String node() {
        return params.str("node");
    }

    int vmid() {
        return params.integer("vmid");
    }
}
