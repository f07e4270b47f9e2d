package dev.bigfleet.proxmox.ctl;

import picocli.CommandLine.IVersionProvider;

/** {@code --version}: the version in the jar's manifest ({@code dev} when run from classes). */
final class CtlVersion implements IVersionProvider {
    @Override
    public String[] getVersion() {
        String v = Bigfleetctl.class.getPackage().getImplementationVersion();
        return new String[] {"bigfleetctl " + (v == null ? "dev" : v)};
    }
}
