package dev.bigfleet.proxmox.pvesim;

/** A worker task: running until its planned end, then stopped with an exit status. */
final class Task {
    final Upid upid;
    final TaskKind kind;
    String exitStatus;

    Task(Upid upid, TaskKind kind) {
        this.upid = upid;
        this.kind = kind;
    }

    boolean running() {
        return exitStatus == null;
    }

    TaskView view() {
        return new TaskView(upid.toString(), upid.node(), upid.type(), upid.id(), running(), exitStatus);
    }
}
