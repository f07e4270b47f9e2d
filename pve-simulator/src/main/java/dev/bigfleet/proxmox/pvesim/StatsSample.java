package dev.bigfleet.proxmox.pvesim;

/** What the statistics feed last reported for a VM: the fields of /cluster/resources that lag. */
record StatsSample(String status, String name, int template) {}
