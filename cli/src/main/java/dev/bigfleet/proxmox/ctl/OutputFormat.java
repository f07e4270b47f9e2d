package dev.bigfleet.proxmox.ctl;

/** How results are printed. */
enum OutputFormat {
    /** Aligned columns for people. */
    TABLE,
    /** Protobuf's JSON mapping with the proto field names, for scripts. */
    JSON
}
