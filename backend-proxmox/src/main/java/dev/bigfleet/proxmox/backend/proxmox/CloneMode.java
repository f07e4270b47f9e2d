package dev.bigfleet.proxmox.backend.proxmox;

import java.util.Locale;
import java.util.Optional;

/** How a template is cloned: a full copy of its disks, or a linked clone sharing its base. */
enum CloneMode {
    FULL,
    LINKED;

    static Optional<CloneMode> parse(String text) {
        switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "full":
                return Optional.of(FULL);
            case "linked":
                return Optional.of(LINKED);
            default:
                return Optional.empty();
        }
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
