package dev.bigfleet.proxmox.engine;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Keeps the bootstrap blob out of {@code last_error}: a bootstrap hook that echoes its input to
 * stderr would otherwise put the credential into Get, List, logs and the admin page.
 */
final class BlobRedaction {
    static final String REDACTED = "<redacted bootstrap blob>";
    /** Shorter blobs are too likely to match ordinary text. */
    private static final int MIN_LENGTH = 8;

    private BlobRedaction() {}

    static String redact(String message, byte[] blob) {
        if (message == null || blob.length < MIN_LENGTH) {
            return message;
        }
        String out = message;
        for (String form : new String[] {
            new String(blob, StandardCharsets.UTF_8).strip(),
            Base64.getEncoder().encodeToString(blob),
            Base64.getEncoder().withoutPadding().encodeToString(blob)
        }) {
            if (form.length() >= MIN_LENGTH) {
                out = out.replace(form, REDACTED);
            }
        }
        return out;
    }
}
