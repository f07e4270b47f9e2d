package dev.bigfleet.proxmox.pvesim;

import java.nio.file.Path;

/**
 * A booted guest of one VM, whatever runs it: a sandbox ({@link GuestSandbox}) or a QEMU virtual
 * machine ({@link QemuGuest}). Its agent channel is {@link #socket()}.
 */
interface GuestMachine {

    /** The unix socket of the guest agent's channel. */
    Path socket();

    /** Powers it off: every process of the guest ends. */
    void halt();

    /** Runs {@code action} once the guest has ended, whoever ended it. */
    void onExit(Runnable action);

    /** What the guest printed on its console. */
    String console();

    /** Kills the running agent; the guest starts a new one. */
    void restartAgent();

    /** Stops (or continues) the agent: its channel still takes commands, nothing answers. */
    void freezeAgent(boolean frozen);

    /** The guest's root directory as the host can read it; empty when there is none (a real VM's disk). */
    default java.util.Optional<Path> root() {
        return java.util.Optional.empty();
    }
}
