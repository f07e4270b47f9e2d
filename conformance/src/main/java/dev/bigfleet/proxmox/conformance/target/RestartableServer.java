package dev.bigfleet.proxmox.conformance.target;

/** A launched provider the durable behaviours can crash and bring back on the same state and port. */
public interface RestartableServer extends LaunchedServer {
    /** Kills the provider without warning (SIGKILL) and starts it again on the same state file. */
    void killAndRestart() throws Exception;
}
