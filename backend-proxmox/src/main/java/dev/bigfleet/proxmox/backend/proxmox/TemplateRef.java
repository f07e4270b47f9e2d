package dev.bigfleet.proxmox.backend.proxmox;

import java.util.Optional;

/**
 * The template a VM was cloned from, as its description records it: the template's VMID and the
 * digest of the template's config at the time (Proxmox's {@code digest} of {@code GET …/config}),
 * so a later change to the template shows as drift.
 */
record TemplateRef(long vmid, String digest) {
    static final String LINE = "bigfleet-template=";

    /** {@code bigfleet-template=9000 3f2c…}. */
    String line() {
        return LINE + vmid + " " + digest;
    }

    /** A description line read back; empty when it is not one this class wrote. */
    static Optional<TemplateRef> parse(String line) {
        if (!line.startsWith(LINE)) {
            return Optional.empty();
        }
        String[] parts = line.substring(LINE.length()).strip().split(" ", -1);
        if (parts.length != 2 || !parts[0].matches("\\d{3,9}") || !parts[1].matches("[0-9a-fA-F]{1,64}")) {
            return Optional.empty();
        }
        return Optional.of(new TemplateRef(Long.parseLong(parts[0]), parts[1]));
    }

    /** The ref of {@code t} as startup (or the last refresh) read it; empty when its config had no digest. */
    static Optional<TemplateRef> of(Template t) {
        return t.entry("digest").map(d -> new TemplateRef(t.vmid(), d));
    }
}
