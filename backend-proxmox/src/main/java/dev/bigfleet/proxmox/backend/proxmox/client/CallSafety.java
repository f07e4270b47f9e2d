package dev.bigfleet.proxmox.backend.proxmox.client;

/** Whether a call may be sent again when its outcome is unknown (the response was lost). */
public enum CallSafety {
    /** Reads, and writes whose repetition changes nothing more (config PUT, file write, stop). */
    REPEATABLE,
    /**
     * Calls that would act twice (clone, guest exec), whose answer is consumed (exec status), or
     * that may reach another VM when repeated (destroy: the VMID it freed may have been reused):
     * retried only when the request certainly never reached Proxmox or Proxmox refused it.
     */
    ONCE
}
