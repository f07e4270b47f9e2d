package dev.bigfleet.proxmox.pvesim;

import java.util.Objects;

/**
 * How a guest command ended, as the agent reported it: an exit code, or the signal that killed it
 * (then no exit code), and its output.
 */
public record ExecResult(Integer exitCode, Integer signal, String stdout, String stderr) {

    public ExecResult {
        stdout = Objects.requireNonNullElse(stdout, "");
        stderr = Objects.requireNonNullElse(stderr, "");
    }

    /** Exited with code 0. */
    public boolean succeeded() {
        return signal == null && Integer.valueOf(0).equals(exitCode);
    }
}
