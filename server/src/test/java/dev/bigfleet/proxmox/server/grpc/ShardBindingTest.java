package dev.bigfleet.proxmox.server.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.server.config.UnnamedClients;
import dev.bigfleet.proxmox.server.grpc.IdentityRefusal.Reason;
import dev.bigfleet.proxmox.server.tls.ClientIdentity;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which fence tokens a client certificate may send under mTLS. */
class ShardBindingTest {
    private static final ShardBinding READ = new ShardBinding(UnnamedClients.READ);
    private static final ShardBinding MUTATE = new ShardBinding(UnnamedClients.MUTATE);

    private static ClientIdentity identity(String... uris) {
        return ClientIdentity.ofUris(List.of(uris));
    }

    private static Optional<Reason> reason(ShardBinding binding, ClientIdentity client, String tokenShard) {
        return binding.refusal(client, tokenShard).map(IdentityRefusal::reason);
    }

    @Test
    void aShardSendsItsOwnTokensOnly() {
        ClientIdentity a = identity("bigfleet://shard/a");
        for (ShardBinding binding : List.of(READ, MUTATE)) {
            assertThat(reason(binding, a, "a")).isEmpty();
            assertThat(reason(binding, a, "b")).contains(Reason.SHARD_MISMATCH);
            assertThat(reason(binding, a, "A")).contains(Reason.SHARD_MISMATCH);
            assertThat(reason(binding, a, "a ")).contains(Reason.SHARD_MISMATCH);
        }
        assertThat(READ.refusal(a, "b").orElseThrow().description())
                .isEqualTo("the client certificate is shard \"a\" (bigfleet://shard/a) and may only send its own"
                        + " fence tokens; this one's shard_id is \"b\"");
    }

    @Test
    void aShardMayNotSendTheAllZeroToken() {
        ClientIdentity a = identity("bigfleet://shard/a");
        assertThat(reason(MUTATE, a, "")).contains(Reason.SHARD_MISMATCH);
        assertThat(READ.refusal(a, "").orElseThrow().description()).endsWith("this one's shard_id is empty");
    }

    @Test
    void aCertificateNamingNoShardMutatesOnlyWhenTheOperatorSaysSo() {
        for (ClientIdentity unnamed : List.of(identity(), identity("bigfleet://admin"), ClientIdentity.NONE)) {
            assertThat(reason(READ, unnamed, "a")).contains(Reason.UNNAMED_CLIENT);
            assertThat(reason(READ, unnamed, "")).contains(Reason.UNNAMED_CLIENT);
            assertThat(reason(MUTATE, unnamed, "a")).isEmpty();
            assertThat(reason(MUTATE, unnamed, "")).isEmpty();
        }
        assertThat(READ.refusal(identity(), "a").orElseThrow().description())
                .contains("names no shard (no bigfleet://shard/ URI)")
                .contains("--tls-unnamed-clients");
    }

    @Test
    void readOnlyAmbiguousAndUnrecognizedCertificatesNeverMutate() {
        for (ShardBinding binding : List.of(READ, MUTATE)) {
            assertThat(reason(binding, identity("bigfleet://readonly"), "")).contains(Reason.READ_ONLY_CLIENT);
            assertThat(reason(binding, identity("bigfleet://shard/a", "bigfleet://shard/b"), "a"))
                    .contains(Reason.AMBIGUOUS_IDENTITY);
            assertThat(reason(binding, identity("bigfleet://shard/"), "")).contains(Reason.UNRECOGNIZED_IDENTITY);
            assertThat(reason(binding, identity("bigfleet://cluster/a"), "a")).contains(Reason.UNRECOGNIZED_IDENTITY);
        }
        assertThat(READ.refusal(identity("bigfleet://shard/a", "bigfleet://shard/b"), "a")
                        .orElseThrow()
                        .description())
                .contains("bigfleet://shard/a,bigfleet://shard/b");
    }

    @Test
    void whatTheCallerSentIsCutToALogLinesLength() {
        String huge = "x".repeat(10_000);
        String description =
                READ.refusal(identity("bigfleet://shard/a"), huge).orElseThrow().description();
        assertThat(description.length()).isLessThan(LoggingInterceptor.MAX_LOGGED_ID + 200);
    }

    @Test
    void reasonsAreTheMetricsLabels() {
        assertThat(List.of(Reason.values()))
                .extracting(Reason::label)
                .containsExactly(
                        "shard_mismatch",
                        "unnamed_client",
                        "read_only_client",
                        "ambiguous_identity",
                        "unrecognized_identity");
    }
}
