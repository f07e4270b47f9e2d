package dev.bigfleet.proxmox.engine;

/** What stopped the transitions a replica finds in flight when it starts leading. */
public enum Interruption {
    /** The provider process stopped or crashed and started again. */
    RESTART("a provider restart"),
    /** The leader replica stopped leading and this one took over. */
    FAILOVER("a leader failover");

    private final String description;

    Interruption(String description) {
        this.description = description;
    }

    /** As {@code last_error} names it: "... was interrupted by a leader failover". */
    public String description() {
        return description;
    }
}
