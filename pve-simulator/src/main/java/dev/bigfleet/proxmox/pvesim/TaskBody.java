package dev.bigfleet.proxmox.pvesim;

/** What a task does when its time is up, called with the cluster lock held. */
interface TaskBody {

    /** Applies the operation; returns null for {@code OK} or the failure text. */
    String finish();

    /** Undoes what the task did up front when an injected fault fails it. */
    default void abort() {}
}
