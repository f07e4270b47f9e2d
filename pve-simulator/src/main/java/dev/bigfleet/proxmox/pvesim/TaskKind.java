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
    MIGRATE("qmigrate"),
    /** A file uploaded to a storage is copied into it. */
    UPLOAD("imgcopy"),
    /** A volume of a storage is deleted. */
    VOLUME_DELETE("imgdel");

    private final String type;

    TaskKind(String type) {
        this.type = type;
    }

    /** The task type as it appears in the UPID and in task status. */
    public String type() {
        return type;
    }
}
