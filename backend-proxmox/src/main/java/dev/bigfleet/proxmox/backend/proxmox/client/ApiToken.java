package dev.bigfleet.proxmox.backend.proxmox.client;

import dev.bigfleet.proxmox.backend.proxmox.files.WatchedFile;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * A Proxmox API token: its id {@code USER@REALM!TOKENID} and its secret, given inline or read from
 * a file that is read again when it changes (a rotated secret is used from the next call on).
 */
public final class ApiToken {
    private static final Pattern ID = Pattern.compile("[^@!=\\s;]+@[^@!=\\s;]+![A-Za-z][A-Za-z0-9._-]*");

    private final String id;
    private final Supplier<TokenSecret> secret;
    private final List<String> held = new CopyOnWriteArrayList<>();
    private volatile TokenSecret last;

    /** @throws IllegalArgumentException when the id is not of the form USER@REALM!TOKENID (see {@link #checkId}) */
    public ApiToken(String id, TokenSecret secret) {
        this(id, (Supplier<TokenSecret>) () -> secret);
    }

    /** A token whose secret is the file's current content. */
    public ApiToken(String id, WatchedFile<TokenSecret> secretFile) {
        this(id, (Supplier<TokenSecret>) secretFile::current);
    }

    private ApiToken(String id, Supplier<TokenSecret> secret) {
        this.id = Objects.requireNonNull(id, "id");
        this.secret = Objects.requireNonNull(secret, "secret");
        checkId(id);
        secret();
    }

    /**
     * @throws IllegalArgumentException when the id is not of the form USER@REALM!TOKENID; the message
     *     quotes the id only when it cannot hold a pasted secret (no {@code =}, no whitespace) and
     *     cannot be a secret given as the id (it has an {@code @} or a {@code !}, which a secret lacks)
     */
    public static void checkId(String id) {
        if (id.indexOf('=') >= 0) {
            throw new PastedSecretException();
        }
        if (id.chars().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException("contains whitespace; a token id has the form USER@REALM!TOKENID");
        }
        if (id.indexOf('@') < 0 && id.indexOf('!') < 0) {
            throw new IllegalArgumentException(
                    "has neither \"@\" nor \"!\", so it is not a token id (USER@REALM!TOKENID);"
                            + " if it is the token's secret, it belongs in the secret's file or flag");
        }
        if (!ID.matcher(id).matches()) {
            throw new IllegalArgumentException("\"" + id + "\" is not a token id of the form USER@REALM!TOKENID");
        }
    }

    /** A token id with {@code USER@REALM!TOKENID=SECRET} in it: the message never repeats it. */
    public static final class PastedSecretException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        PastedSecretException() {
            super("the token secret was pasted into the id (the part after \"=\"); give only USER@REALM!TOKENID here");
        }
    }

    public String id() {
        return id;
    }

    /** The secret to send now. */
    public TokenSecret secret() {
        TokenSecret now = secret.get();
        if (now != last) {
            synchronized (this) {
                if (now != last) {
                    if (!held.contains(now.expose())) {
                        held.add(now.expose());
                    }
                    last = now;
                }
            }
        }
        return now;
    }

    /** Every secret this token has sent: text that might echo an old one is scrubbed of it too. */
    public List<String> secretsHeld() {
        return List.copyOf(held);
    }

    /** The {@code Authorization} header value; build it at send time and never keep it around. */
    String authorization() {
        return "PVEAPIToken=" + id + "=" + secret().expose();
    }

    @Override
    public String toString() {
        return id;
    }
}
