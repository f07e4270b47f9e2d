package dev.bigfleet.proxmox.pvesim;

/**
 * What an endpoint returns when the rest of its work must not hold the cluster lock (a guest agent
 * call waits up to seconds for the guest): the handler runs it after releasing the lock and sends
 * what it returns, or the {@link ApiException} it throws.
 */
@FunctionalInterface
interface Unlocked {
    Object run();
}
