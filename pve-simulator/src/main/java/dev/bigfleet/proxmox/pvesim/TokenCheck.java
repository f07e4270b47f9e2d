package dev.bigfleet.proxmox.pvesim;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * Checks {@code Authorization: PVEAPIToken=USER@REALM!TOKENID=SECRET} (or with a space after the
 * scheme) against the configured token. No header, or another scheme, is {@code No ticket};
 * anything else wrong is {@code Authentication failed!}.
 */
final class TokenCheck {
    private static final String SCHEME = "PVEAPIToken";
    private final ApiToken token;

    TokenCheck(ApiToken token) {
        this.token = token;
    }

    /** @return null when the token is accepted, else the 401 to answer */
    ApiException check(String header) {
        if (header == null || !header.startsWith(SCHEME) || header.length() == SCHEME.length()) {
            return Errors.noTicket();
        }
        char sep = header.charAt(SCHEME.length());
        if (sep != '=' && sep != ' ') {
            return Errors.noTicket();
        }
        String value;
        try {
            value = URLDecoder.decode(
                    header.substring(SCHEME.length() + 1).trim().replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return Errors.authFailed();
        }
        int eq = value.lastIndexOf('=');
        if (eq <= 0 || value.contains(";")) {
            return Errors.authFailed();
        }
        String id = value.substring(0, eq);
        String secret = value.substring(eq + 1);
        boolean idOk = id.equals(token.tokenId());
        boolean secretOk = MessageDigest.isEqual(
                secret.getBytes(StandardCharsets.UTF_8), token.secret().getBytes(StandardCharsets.UTF_8));
        return idOk && secretOk ? null : Errors.authFailed();
    }
}
