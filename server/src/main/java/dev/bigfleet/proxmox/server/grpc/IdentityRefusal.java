package dev.bigfleet.proxmox.server.grpc;

import java.util.Locale;
import java.util.Objects;

/**
 * Why a mutation's client certificate may not use its fence token: the reason (the label of {@code
 * bigfleet_proxmox_identity_refusals_total}) and the words the caller gets with PERMISSION_DENIED.
 */
record IdentityRefusal(Reason reason, String description) {
    enum Reason {
        /** A shard's certificate, a token of another shard (or the all-zero token). */
        SHARD_MISMATCH,
        /** A certificate naming no shard, and {@code --tls-unnamed-clients read}. */
        UNNAMED_CLIENT,
        /** {@code bigfleet://readonly}. */
        READ_ONLY_CLIENT,
        /** More than one {@code bigfleet://} URI. */
        AMBIGUOUS_IDENTITY,
        /** A {@code bigfleet://} URI that is no identity the provider knows. */
        UNRECOGNIZED_IDENTITY;

        /** The metric label. */
        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    IdentityRefusal {
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(description, "description");
    }
}
