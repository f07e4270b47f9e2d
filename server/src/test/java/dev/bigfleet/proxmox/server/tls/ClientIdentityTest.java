package dev.bigfleet.proxmox.server.tls;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.server.tls.ClientIdentity.Role;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The {@code bigfleet://} URI SANs of a client certificate, read as ADR-0048 writes them. */
class ClientIdentityTest {
    @Test
    void oneShardUriNamesThatShard() {
        ClientIdentity shard = ClientIdentity.ofUris(List.of("bigfleet://shard/eu-west-1"));
        assertThat(shard.role()).isEqualTo(Role.SHARD);
        assertThat(shard.shardId()).isEqualTo("eu-west-1");
        assertThat(shard.describe()).isEqualTo("bigfleet://shard/eu-west-1");
    }

    @Test
    void theSchemeMatchesInAnyCaseAndTheIdAsWritten() {
        ClientIdentity shard = ClientIdentity.ofUris(List.of("BigFleet://shard/Shard%20A"));
        assertThat(shard.role()).isEqualTo(Role.SHARD);
        assertThat(shard.shardId()).as("not percent-decoded").isEqualTo("Shard%20A");
        assertThat(shard.identityUris()).containsExactly("bigfleet://shard/Shard%20A");
        assertThat(ClientIdentity.ofUris(List.of("bigfleet://SHARD/a")).role()).isEqualTo(Role.UNRECOGNIZED);
    }

    @Test
    void otherSchemesAreNotLookedAt() {
        ClientIdentity spiffe = ClientIdentity.ofUris(List.of("spiffe://example.org/shard/a", "https://bigfleet/x"));
        assertThat(spiffe.role()).isEqualTo(Role.UNNAMED);
        assertThat(spiffe.describe()).isEqualTo("none");
        assertThat(ClientIdentity.ofUris(List.of("spiffe://example.org/a", "bigfleet://shard/a"))
                        .shardId())
                .isEqualTo("a");
    }

    @Test
    void noBigfleetUriAndTheAdminIdentityNameNoShard() {
        assertThat(ClientIdentity.ofUris(List.of()).role()).isEqualTo(Role.UNNAMED);
        ClientIdentity admin = ClientIdentity.ofUris(List.of("bigfleet://admin"));
        assertThat(admin.role()).isEqualTo(Role.UNNAMED);
        assertThat(admin.shardId()).isEmpty();
        assertThat(admin.describe()).isEqualTo("bigfleet://admin");
    }

    @Test
    void theReadOnlyIdentityIsItsOwn() {
        assertThat(ClientIdentity.ofUris(List.of("bigfleet://readonly")).role()).isEqualTo(Role.READ_ONLY);
    }

    @Test
    void moreThanOneBigfleetUriIsAmbiguousEvenWhenTheyAgree() {
        assertThat(ClientIdentity.ofUris(List.of("bigfleet://shard/a", "bigfleet://shard/b")))
                .satisfies(i -> assertThat(i.role()).isEqualTo(Role.AMBIGUOUS))
                .satisfies(i -> assertThat(i.shardId()).isEmpty())
                .satisfies(i -> assertThat(i.describe()).isEqualTo("bigfleet://shard/a,bigfleet://shard/b"));
        assertThat(ClientIdentity.ofUris(List.of("bigfleet://shard/a", "bigfleet://shard/a"))
                        .role())
                .isEqualTo(Role.AMBIGUOUS);
        assertThat(ClientIdentity.ofUris(List.of("bigfleet://shard/a", "bigfleet://admin"))
                        .role())
                .isEqualTo(Role.AMBIGUOUS);
    }

    @Test
    void aBigfleetUriThatIsNoKnownIdentityIsUnrecognized() {
        for (String uri : List.of(
                "bigfleet://shard/",
                "bigfleet://shard/a/b",
                "bigfleet://shard/a?x=1",
                "bigfleet://shard/a#b",
                "bigfleet://shard",
                "bigfleet://cluster/prod-1",
                "bigfleet://admin/x",
                "bigfleet:shard/a")) {
            assertThat(ClientIdentity.ofUris(List.of(uri)).role()).as(uri).isEqualTo(Role.UNRECOGNIZED);
        }
    }
}
