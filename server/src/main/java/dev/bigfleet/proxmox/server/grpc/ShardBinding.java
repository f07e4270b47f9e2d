package dev.bigfleet.proxmox.server.grpc;

import dev.bigfleet.proxmox.server.config.UnnamedClients;
import dev.bigfleet.proxmox.server.tls.ClientIdentity;
import java.util.Optional;

/**
 * Under mTLS, which fence tokens a client certificate may send (BigFleet ADR-0048): a shard's
 * certificate ({@code bigfleet://shard/<id>}) only tokens whose {@code shard_id} is its id, so not
 * the all-zero token, whose {@code shard_id} is empty; a certificate naming no shard none, or with
 * {@code --tls-unnamed-clients mutate} any; {@code bigfleet://readonly}, a certificate with several
 * {@code bigfleet://} URIs and one with a URI the provider does not know, none.
 */
final class ShardBinding {
    private final UnnamedClients unnamedClients;

    ShardBinding(UnnamedClients unnamedClients) {
        this.unnamedClients = unnamedClients;
    }

    /** Why {@code client} may not send a token of {@code tokenShard}; empty when it may. */
    Optional<IdentityRefusal> refusal(ClientIdentity client, String tokenShard) {
        return switch (client.role()) {
            case SHARD ->
                client.shardId().equals(tokenShard)
                        ? Optional.empty()
                        : refuse(
                                IdentityRefusal.Reason.SHARD_MISMATCH,
                                "the client certificate is shard " + quoted(client.shardId()) + " ("
                                        + bounded(client.describe())
                                        + ") and may only send its own fence tokens; this one's"
                                        + " shard_id is " + (tokenShard.isEmpty() ? "empty" : quoted(tokenShard)));
            case UNNAMED ->
                unnamedClients == UnnamedClients.MUTATE
                        ? Optional.empty()
                        : refuse(
                                IdentityRefusal.Reason.UNNAMED_CLIENT,
                                "the client certificate names no shard (no " + ClientIdentity.SHARD_PREFIX
                                        + " URI): it may only read (the provider's --tls-unnamed-clients is read)");
            case READ_ONLY ->
                refuse(
                        IdentityRefusal.Reason.READ_ONLY_CLIENT,
                        "the client certificate is " + ClientIdentity.READ_ONLY + ": it may only read");
            case AMBIGUOUS ->
                refuse(
                        IdentityRefusal.Reason.AMBIGUOUS_IDENTITY,
                        "the client certificate has more than one " + ClientIdentity.SCHEME + ":// URI ("
                                + bounded(client.describe()) + "): it must name exactly one shard to mutate");
            case UNRECOGNIZED ->
                refuse(
                        IdentityRefusal.Reason.UNRECOGNIZED_IDENTITY,
                        client.identityUris().isEmpty()
                                ? "the client certificate's subjectAltName cannot be read: it may only read"
                                : "the client certificate's identity " + quoted(client.describe()) + " is not "
                                        + ClientIdentity.SHARD_PREFIX + "<id>: it may only read");
        };
    }

    private static Optional<IdentityRefusal> refuse(IdentityRefusal.Reason reason, String description) {
        return Optional.of(new IdentityRefusal(reason, description));
    }

    private static String quoted(String text) {
        return "\"" + bounded(text) + "\"";
    }

    /** Text from the request or the certificate, cut to what a log line holds. */
    static String bounded(String text) {
        return text.length() > LoggingInterceptor.MAX_LOGGED_ID
                ? text.substring(0, LoggingInterceptor.MAX_LOGGED_ID) + "..."
                : text;
    }
}
