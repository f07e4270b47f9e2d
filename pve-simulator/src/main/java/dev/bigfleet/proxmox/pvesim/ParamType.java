package dev.bigfleet.proxmox.pvesim;

/** The parameter types of the simulated API schema. */
enum ParamType {
    BOOLEAN,
    INTEGER,
    STRING,
    ARRAY
}
