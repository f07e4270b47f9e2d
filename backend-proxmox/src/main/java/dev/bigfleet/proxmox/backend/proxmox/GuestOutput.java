package dev.bigfleet.proxmox.backend.proxmox;

import java.nio.charset.StandardCharsets;

/** Bounds a guest command's output for last_error: its last 2 KiB, cut on a character boundary. */
final class GuestOutput {
    static final int MAX_BYTES = 2048;

    private GuestOutput() {}

    static String tail(String text) {
        String t = text.strip();
        byte[] bytes = t.getBytes(StandardCharsets.UTF_8);
        if (bytes.length <= MAX_BYTES) {
            return t;
        }
        int from = bytes.length - MAX_BYTES;
        // skip UTF-8 continuation bytes so the cut never splits a character
        while (from < bytes.length && (bytes[from] & 0xC0) == 0x80) {
            from++;
        }
        return "…" + new String(bytes, from, bytes.length - from, StandardCharsets.UTF_8);
    }
}
