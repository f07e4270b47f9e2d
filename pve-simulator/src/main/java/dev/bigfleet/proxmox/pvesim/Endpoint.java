package dev.bigfleet.proxmox.pvesim;

/** One API method; returns the {@code data} payload or throws {@link ApiException}. */
@FunctionalInterface
interface Endpoint {
    Object handle(Call call);
}
