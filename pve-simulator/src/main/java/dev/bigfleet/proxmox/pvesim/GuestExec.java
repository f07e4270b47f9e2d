package dev.bigfleet.proxmox.pvesim;

import java.util.List;

/**
 * One {@code agent/exec} a guest received: its pid, argv and stdin, and the outcome the simulator
 * decided for it. {@code exited} turns true once the command's time has passed (whether or not a
 * client has polled it).
 */
public record GuestExec(int pid, List<String> argv, String inputData, ExecResult result, boolean exited) {

    public GuestExec {
        argv = List.copyOf(argv);
        inputData = inputData == null ? "" : inputData;
    }

    /** argv joined with single spaces, for matching in assertions. */
    public String commandLine() {
        return String.join(" ", argv);
    }
}
