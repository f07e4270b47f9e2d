package dev.bigfleet.proxmox.backend.proxmox.client;

import java.util.Locale;

/** Turns the JDK's handshake failures into a sentence an operator can act on. */
final class TlsFailure {
    private TlsFailure() {}

    static String explain(Throwable e, String host) {
        String all = chain(e).toLowerCase(Locale.ROOT);
        if (all.contains("fingerprint does not match")) {
            return "its SHA-256 fingerprint does not match --proxmox-tls-fingerprint";
        }
        if (all.contains("no subject alternative") || all.contains("no name matching")) {
            return "it does not name the host \"" + host + "\" (hostname verification failed)";
        }
        if (all.contains("pkix") || all.contains("certification path")) {
            return "it is not signed by a certificate authority in --proxmox-ca-file";
        }
        if (all.contains("expired") || all.contains("not yet valid")) {
            return "it is expired or not yet valid";
        }
        return chain(e);
    }

    private static String chain(Throwable e) {
        StringBuilder out = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t.getMessage() != null) {
                if (out.length() > 0) {
                    out.append(": ");
                }
                out.append(t.getMessage());
            }
        }
        return out.toString();
    }
}
