package dev.bigfleet.proxmox.pvesim;

import java.time.Duration;
import java.util.Objects;

/**
 * How a guest command ends: an exit code or a signal, its stdout and stderr, and how long it runs.
 * A null {@code duration} means the simulator's scaled default exec time. A command that
 * {@link #hangs()} never reports {@code exited:1}, like a script whose background child keeps
 * stdout open.
 */
public record ExecResult(
        Integer exitCode, Integer signal, String stdout, String stderr, Duration duration, boolean hangs) {

    public ExecResult {
        if ((exitCode == null) == (signal == null) && !hangs) {
            throw new IllegalArgumentException("exactly one of exitCode and signal must be set");
        }
        stdout = Objects.requireNonNullElse(stdout, "");
        stderr = Objects.requireNonNullElse(stderr, "");
        if (duration != null && duration.isNegative()) {
            throw new IllegalArgumentException("duration must not be negative");
        }
    }

    public static ExecResult exit(int code) {
        return new ExecResult(code, null, "", "", null, false);
    }

    public static ExecResult exit(int code, String stdout, String stderr) {
        return new ExecResult(code, null, stdout, stderr, null, false);
    }

    public static ExecResult killed(int signal) {
        return new ExecResult(null, signal, "", "", null, false);
    }

    /** Never reports an exit. */
    public static ExecResult hang() {
        return new ExecResult(null, null, "", "", null, true);
    }

    /** The same outcome after exactly {@code d} (not scaled by the latency). */
    public ExecResult after(Duration d) {
        return new ExecResult(exitCode, signal, stdout, stderr, Objects.requireNonNull(d), hangs);
    }
}
