package dev.bigfleet.proxmox.pvesim;

import java.util.List;

/**
 * One {@code agent/exec} the API passed to a guest: the pid the agent gave it, its argv and stdin,
 * and its end once an {@code agent/exec-status} reported it (null until then).
 */
public record GuestExec(int pid, List<String> argv, String inputData, ExecResult result) {

    public GuestExec {
        argv = List.copyOf(argv);
        inputData = inputData == null ? "" : inputData;
    }

    /** Whether a client has been told it exited. */
    public boolean exited() {
        return result != null;
    }

    /** argv joined with single spaces, for matching in assertions. */
    public String commandLine() {
        return String.join(" ", argv);
    }

    GuestExec ended(ExecResult end) {
        return new GuestExec(pid, argv, inputData, end);
    }
}
