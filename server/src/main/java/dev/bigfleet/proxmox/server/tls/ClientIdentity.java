package dev.bigfleet.proxmox.server.tls;

import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Who a verified client certificate says the caller is, read from its {@code bigfleet://} URI SANs
 * (BigFleet ADR-0048: exactly one per certificate). A shard presents {@code bigfleet://shard/<id>};
 * {@code bigfleet://admin} (ADR-0048's identity of {@code bigfleetctl}) names no shard, as a
 * certificate without any {@code bigfleet://} URI does; {@code bigfleet://readonly} (ADR-0060) only
 * reads. The scheme is matched in any case, the rest as written: the shard id is the text after
 * {@code bigfleet://shard/}, not percent-decoded, and must be non-empty without {@code /}, {@code ?}
 * or {@code #}. URIs of other schemes (SPIFFE ids, say) are not looked at.
 *
 * @param role what the certificate may be taken for
 * @param shardId the shard it names; empty unless {@code role} is {@link Role#SHARD}
 * @param identityUris its {@code bigfleet://} URIs, the scheme in lower case
 */
public record ClientIdentity(Role role, String shardId, List<String> identityUris) {
    /** What a certificate is taken for. */
    public enum Role {
        /** Exactly one {@code bigfleet://} URI, {@code bigfleet://shard/<id>}. */
        SHARD,
        /** No {@code bigfleet://} URI, or exactly {@code bigfleet://admin}: it names no shard. */
        UNNAMED,
        /** Exactly {@code bigfleet://readonly}. */
        READ_ONLY,
        /** More than one {@code bigfleet://} URI. */
        AMBIGUOUS,
        /** One {@code bigfleet://} URI that is none of the above, or SANs that cannot be read. */
        UNRECOGNIZED
    }

    public static final String SCHEME = "bigfleet";
    public static final String SHARD_PREFIX = SCHEME + "://shard/";
    public static final String ADMIN = SCHEME + "://admin";
    public static final String READ_ONLY = SCHEME + "://readonly";

    /** The identity of a client that presented no certificate (which mTLS never lets through). */
    public static final ClientIdentity NONE = new ClientIdentity(Role.UNNAMED, "", List.of());

    /** The {@code subjectAltName} entry type of a URI (RFC 5280, GeneralName). */
    private static final int URI_NAME = 6;

    public ClientIdentity {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(shardId, "shardId");
        identityUris = List.copyOf(identityUris);
        if ((role == Role.SHARD) == shardId.isEmpty()) {
            throw new IllegalArgumentException("a shard id belongs to, and only to, a shard identity");
        }
    }

    /** The identity {@code certificate}'s URI SANs give. */
    public static ClientIdentity of(X509Certificate certificate) {
        Collection<List<?>> names;
        try {
            names = certificate.getSubjectAlternativeNames();
        } catch (CertificateParsingException e) {
            return new ClientIdentity(Role.UNRECOGNIZED, "", List.of());
        }
        List<String> uris = new ArrayList<>();
        if (names != null) {
            for (List<?> name : names) {
                if (name.size() == 2 && name.get(0) instanceof Integer type && type == URI_NAME) {
                    uris.add(String.valueOf(name.get(1)));
                }
            }
        }
        return ofUris(uris);
    }

    /** The identity a certificate with these URI SANs (of any scheme) has. */
    public static ClientIdentity ofUris(Collection<String> uriSans) {
        List<String> identities = new ArrayList<>();
        for (String uri : uriSans) {
            int colon = uri.indexOf(':');
            if (colon > 0 && uri.substring(0, colon).equalsIgnoreCase(SCHEME)) {
                identities.add(uri.substring(0, colon).toLowerCase(Locale.ROOT) + uri.substring(colon));
            }
        }
        if (identities.isEmpty()) {
            return new ClientIdentity(Role.UNNAMED, "", identities);
        }
        if (identities.size() > 1) {
            return new ClientIdentity(Role.AMBIGUOUS, "", identities);
        }
        String uri = identities.get(0);
        if (uri.equals(ADMIN)) {
            return new ClientIdentity(Role.UNNAMED, "", identities);
        }
        if (uri.equals(READ_ONLY)) {
            return new ClientIdentity(Role.READ_ONLY, "", identities);
        }
        if (uri.startsWith(SHARD_PREFIX)) {
            String id = uri.substring(SHARD_PREFIX.length());
            if (!id.isEmpty() && id.chars().noneMatch(c -> c == '/' || c == '?' || c == '#')) {
                return new ClientIdentity(Role.SHARD, id, identities);
            }
        }
        return new ClientIdentity(Role.UNRECOGNIZED, "", identities);
    }

    /** Its {@code bigfleet://} URIs, comma-separated, or {@code none}. */
    public String describe() {
        return identityUris.isEmpty() ? "none" : String.join(",", identityUris);
    }
}
