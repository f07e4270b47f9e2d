package dev.bigfleet.proxmox.spi;

/** The VM a Create produced (or adopted). */
public record CreatedVm(String node, long vmid) {
    public String hostRef() {
        return node + "/" + vmid;
    }
}
