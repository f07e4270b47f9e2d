package dev.bigfleet.proxmox.backend.proxmox.client;

import java.util.Objects;

/**
 * The API token secret. Its {@code toString} never shows it, so it cannot leak through a log line,
 * an exception message or a debugger's record dump by accident.
 */
public final class TokenSecret {
    private final String value;

    public TokenSecret(String value) {
        this.value = Objects.requireNonNull(value, "value");
        if (value.isEmpty()) {
            throw new IllegalArgumentException("the token secret is empty");
        }
        if (value.indexOf('=') >= 0) {
            // Proxmox secrets are UUIDs: this is the whole USER@REALM!TOKENID=SECRET, or a header
            throw new IllegalArgumentException("holds \"=\", so it looks like a whole token"
                    + " (USER@REALM!TOKENID=SECRET); give only the SECRET, the part after the last \"=\"");
        }
        if (value.chars().anyMatch(c -> c == ';' || Character.isWhitespace(c) || Character.isISOControl(c))) {
            // Proxmox refuses such a header value; say so without quoting the secret
            throw new IllegalArgumentException("the token secret contains whitespace, control characters or ';'");
        }
    }

    /** The secret itself, for the Authorization header and for scrubbing text that might echo it. */
    public String expose() {
        return value;
    }

    @Override
    public String toString() {
        return "<redacted>";
    }
}
