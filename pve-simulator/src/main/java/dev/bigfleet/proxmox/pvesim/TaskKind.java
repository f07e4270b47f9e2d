package dev.bigfleet.proxmox.pvesim;

/** The asynchronous operations whose tasks can be made to fail or run slowly. */
public enum TaskKind {
    CLONE("qmclone"),
    START("qmstart"),
    STOP("qmstop"),
    SHUTDOWN("qmshutdown"),
    DESTROY("qmdestroy"),
    CONFIG("qmconfig"),
    RESIZE("resize"),
    MIGRATE("qmigrate");

    private final String type;

    TaskKind(String type) {
        this.type = type;
    }

    /** The task type as it appears in the UPID and in task status. */
    public String type() {
        return type;
    }
}
