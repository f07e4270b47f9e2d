package dev.bigfleet.proxmox.pvesim;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A task id in Proxmox's format: {@code UPID:node:PID:PSTART:STARTTIME:type:id:user:}. */
record Upid(String node, long pid, long pstart, long startTime, String type, String id, String user) {
    private static final Pattern FORMAT = Pattern.compile(
            "UPID:([a-zA-Z0-9]([a-zA-Z0-9\\-]*[a-zA-Z0-9])?):([0-9A-Fa-f]{8}):([0-9A-Fa-f]{8,9}):([0-9A-Fa-f]{8}):"
                    + "([^:\\s]+):([^:\\s]*):([^:\\s]+):");

    static Upid parse(String text) {
        Matcher m = FORMAT.matcher(text);
        if (!m.matches()) {
            return null;
        }
        return new Upid(
                m.group(1),
                Long.parseLong(m.group(3), 16),
                Long.parseLong(m.group(4), 16),
                Long.parseLong(m.group(5), 16),
                m.group(6),
                m.group(7),
                m.group(8));
    }

    @Override
    public String toString() {
        return String.format(
                Locale.ROOT, "UPID:%s:%08X:%08X:%08X:%s:%s:%s:", node, pid, pstart, startTime, type, id, user);
    }
}
