package dev.bigfleet.proxmox.backend.fake;

/** The outcome of a command run in a guest through the agent, as a real guest would report it. */
record GuestExecResult(int exitCode, String stderr) {
    static final GuestExecResult SUCCESS = new GuestExecResult(0, "");

    GuestExecResult {
        stderr = stderr == null ? "" : stderr;
    }

    boolean succeeded() {
        return exitCode == 0;
    }

    /** Worded like the real backend, so fake and real failures read the same in last_error. */
    String failureText() {
        return "guest command exited " + exitCode + ": " + stderr.strip();
    }
}
