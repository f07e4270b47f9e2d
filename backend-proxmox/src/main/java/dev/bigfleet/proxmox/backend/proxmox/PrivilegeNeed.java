package dev.bigfleet.proxmox.backend.proxmox;

import java.util.List;
import java.util.Set;

/**
 * What one API call needs on a path: any one of {@code anyOf} (Proxmox's {@code any => 1}
 * permission checks; most calls name a single privilege). PVE 9's guest agent calls are the reason:
 * {@code ping} takes {@code VM.GuestAgent.Audit} or {@code .Unrestricted}, {@code file-write}
 * {@code .FileWrite} or {@code .Unrestricted}, {@code exec} only {@code .Unrestricted}.
 *
 * @param anyOf the privileges that each satisfy the need, the narrowest first
 */
record PrivilegeNeed(List<String> anyOf) {
    PrivilegeNeed {
        if (anyOf.isEmpty()) {
            throw new IllegalArgumentException("a privilege need names at least one privilege");
        }
        anyOf = List.copyOf(anyOf);
    }

    static PrivilegeNeed of(String privilege) {
        return new PrivilegeNeed(List.of(privilege));
    }

    static PrivilegeNeed anyOf(String... privileges) {
        return new PrivilegeNeed(List.of(privileges));
    }

    /** Whether a token holding {@code held} on the path satisfies this need. */
    boolean heldIn(Set<String> held) {
        return anyOf.stream().anyMatch(held::contains);
    }

    /** {@code VM.Clone}, or {@code one of VM.GuestAgent.Audit, VM.GuestAgent.Unrestricted}. */
    @Override
    public String toString() {
        return anyOf.size() == 1 ? anyOf.get(0) : "one of " + String.join(", ", anyOf);
    }
}
