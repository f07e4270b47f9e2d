package dev.bigfleet.proxmox.pvesim;

import java.util.List;

/** A guest command in flight or finished; {@code reported} once a client saw its exit. */
final class ExecState {
    final int pid;
    final List<String> argv;
    final String inputData;
    final ExecResult result;
    final long endsAtNanos;
    boolean reported;

    ExecState(int pid, List<String> argv, String inputData, ExecResult result, long endsAtNanos) {
        this.pid = pid;
        this.argv = List.copyOf(argv);
        this.inputData = inputData;
        this.result = result;
        this.endsAtNanos = endsAtNanos;
    }

    boolean exited(long now) {
        return !result.hangs() && now >= endsAtNanos;
    }

    GuestExec view(long now) {
        return new GuestExec(pid, argv, inputData, result, exited(now));
    }
}
