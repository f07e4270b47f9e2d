package dev.bigfleet.proxmox.backend.proxmox;

/** {@code --vmid-range FROM-TO}: the VMIDs this provider may give its clones, both ends included. */
record VmidRange(long from, long to) {
    static final long MIN = 100;
    static final long MAX = 999_999_999;

    VmidRange {
        if (from < MIN || to > MAX || from > to) {
            throw new IllegalArgumentException(from + "-" + to + " must satisfy " + MIN + " <= FROM <= TO <= " + MAX);
        }
    }

    /** @throws IllegalArgumentException saying what is wrong with the text */
    static VmidRange parse(String text) {
        String[] parts = text.trim().split("-", -1);
        if (parts.length != 2) {
            throw new IllegalArgumentException("\"" + text + "\" is not of the form FROM-TO (e.g. 5000-5999)");
        }
        try {
            return new VmidRange(Long.parseLong(parts[0].trim()), Long.parseLong(parts[1].trim()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("\"" + text + "\" is not of the form FROM-TO (e.g. 5000-5999)");
        }
    }

    boolean contains(long vmid) {
        return vmid >= from && vmid <= to;
    }

    @Override
    public String toString() {
        return from + "-" + to;
    }
}
