package dev.bigfleet.proxmox.pvesim;

import java.util.ArrayList;
import java.util.List;

/**
 * A worker task: running until its planned end, then stopped with an exit status ({@code OK},
 * {@code WARNINGS: n} when its body warned, or the error) and its log, as {@code GET
 * /nodes/{node}/tasks/{upid}/log} shows it: the lines the worker printed, then {@code TASK OK},
 * {@code TASK WARNINGS: n} or {@code TASK ERROR: ...}.
 */
final class Task {
    final Upid upid;
    final TaskKind kind;
    String exitStatus;
    final List<String> log = new ArrayList<>();
    int warnings;

    Task(Upid upid, TaskKind kind) {
        this.upid = upid;
        this.kind = kind;
    }

    /** A worker's {@code warn}: a line of the log, and one more warning in the exit status. */
    void warn(String line) {
        log.add(line);
        warnings++;
    }

    /** Ends the task: {@code failure} null is success, with warnings if any were logged. */
    void end(String failure) {
        exitStatus = failure != null ? failure : warnings > 0 ? "WARNINGS: " + warnings : "OK";
        log.add(failure != null ? "TASK ERROR: " + failure : "TASK " + exitStatus);
    }

    boolean running() {
        return exitStatus == null;
    }

    TaskView view() {
        return new TaskView(upid.toString(), upid.node(), upid.type(), upid.id(), running(), exitStatus);
    }
}
