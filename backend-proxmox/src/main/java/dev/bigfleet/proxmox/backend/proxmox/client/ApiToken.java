package dev.bigfleet.proxmox.backend.proxmox.client;

import java.util.Objects;
import java.util.regex.Pattern;

/** A Proxmox API token: its id {@code USER@REALM!TOKENID} and its secret. */
public final class ApiToken {
    private static final Pattern ID = Pattern.compile("[^@!=\\s;]+@[^@!=\\s;]+![A-Za-z][A-Za-z0-9._-]*");

    private final String id;
    private final TokenSecret secret;

    /** @throws IllegalArgumentException when the id is not of the form USER@REALM!TOKENID */
    public ApiToken(String id, TokenSecret secret) {
        this.id = Objects.requireNonNull(id, "id");
        this.secret = Objects.requireNonNull(secret, "secret");
        if (!ID.matcher(id).matches()) {
            throw new IllegalArgumentException("\"" + id + "\" is not a token id of the form USER@REALM!TOKENID");
        }
    }

    public String id() {
        return id;
    }

    public TokenSecret secret() {
        return secret;
    }

    /** The {@code Authorization} header value; build it at send time and never keep it around. */
    String authorization() {
        return "PVEAPIToken=" + id + "=" + secret.expose();
    }

    @Override
    public String toString() {
        return id;
    }
}
