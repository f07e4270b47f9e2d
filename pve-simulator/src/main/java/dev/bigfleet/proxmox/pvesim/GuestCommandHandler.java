package dev.bigfleet.proxmox.pvesim;

import java.util.List;

/**
 * Decides what a guest command does. Installed with {@link Faults#guestCommands}; the simulator
 * asks it first for every {@code agent/exec}, and falls back to its built-in guest (a few file
 * commands and a tiny {@code sh -c}) when it answers null.
 */
@FunctionalInterface
public interface GuestCommandHandler {

    /**
     * @param guest the VM's file system, to read or change
     * @param argv the command as sent
     * @param inputData the stdin, empty when none was sent
     * @return the outcome, or null for the built-in behaviour
     */
    ExecResult run(GuestFileSystem guest, List<String> argv, String inputData);
}
