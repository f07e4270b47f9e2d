package dev.bigfleet.proxmox.pvesim;

/** An LXC container: only listed and counted for VMID allocation, so clients must filter it out. */
record Container(int vmid, String node, String name) {}
