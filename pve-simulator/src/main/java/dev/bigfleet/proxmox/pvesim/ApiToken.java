package dev.bigfleet.proxmox.pvesim;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The one API token the simulator accepts, written {@code USER@REALM!TOKENID=SECRET}. Proxmox splits
 * the header value at the last {@code =}, so the secret cannot contain one.
 */
public record ApiToken(String tokenId, String secret) {
    private static final Pattern TOKEN_ID =
            Pattern.compile("[^\\s@!:]+@[A-Za-z][A-Za-z0-9.\\-_]*![A-Za-z][A-Za-z0-9.\\-_]*");

    public ApiToken {
        Objects.requireNonNull(tokenId, "tokenId");
        Objects.requireNonNull(secret, "secret");
        if (!TOKEN_ID.matcher(tokenId).matches()) {
            throw new IllegalArgumentException("token id \"" + tokenId + "\" is not of the form USER@REALM!TOKENID");
        }
        if (secret.isEmpty() || secret.contains("=") || secret.contains(";")) {
            throw new IllegalArgumentException("token secret must be non-empty and contain no '=' or ';'");
        }
    }

    /** Parses {@code USER@REALM!TOKENID=SECRET}. */
    public static ApiToken parse(String text) {
        Objects.requireNonNull(text, "token");
        int eq = text.lastIndexOf('=');
        if (eq <= 0) {
            throw new IllegalArgumentException("token must look like USER@REALM!TOKENID=SECRET");
        }
        return new ApiToken(text.substring(0, eq), text.substring(eq + 1));
    }

    /** {@code USER@REALM}, as task status reports it in {@code user}. */
    public String user() {
        return tokenId.substring(0, tokenId.indexOf('!'));
    }

    /** The part after {@code !}, as task status reports it in {@code tokenid}. */
    public String tokenName() {
        return tokenId.substring(tokenId.indexOf('!') + 1);
    }

    /** The value of the {@code Authorization} header a client sends. */
    public String authorizationHeader() {
        return "PVEAPIToken=" + tokenId + "=" + secret;
    }

    @Override
    public String toString() {
        // Keeps the secret out of logs and assertion messages.
        return tokenId + "=***";
    }
}
