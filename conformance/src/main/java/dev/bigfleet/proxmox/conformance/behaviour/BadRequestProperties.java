package dev.bigfleet.proxmox.conformance.behaviour;

import static dev.bigfleet.proxmox.conformance.support.States.SPECULATIVE;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.bigfleet.proxmox.conformance.support.Expect;
import dev.bigfleet.proxmox.conformance.support.MachinePool;
import dev.bigfleet.proxmox.conformance.support.Metadata;
import dev.bigfleet.proxmox.conformance.support.Outcome;
import dev.bigfleet.proxmox.conformance.support.ProviderClient;
import dev.bigfleet.proxmox.conformance.support.Requests;
import dev.bigfleet.proxmox.conformance.support.RequiresCoreTarget;
import dev.bigfleet.proxmox.conformance.support.Shard;
import dev.bigfleet.proxmox.conformance.support.Token;
import dev.bigfleet.proxmox.conformance.support.Transition;
import dev.bigfleet.proxmox.conformance.target.Profile;
import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import io.grpc.Status.Code;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AddLifecycleHook;

/**
 * Bad-request property B1205: malformed requests always get the documented code, and a negative
 * token part, which is not malformed, never fences a first contact. Requests aimed
 * at a real machine use a SPECULATIVE one where the operation would otherwise be out of position,
 * so a provider that skipped validation answers with a different code and is caught.
 */
@AddLifecycleHook(RequiresCoreTarget.class)
class BadRequestProperties {
    /** One real machine per server, shared by every try: no try may change it. */
    private static final Map<String, String> VICTIM = new HashMap<>();

    enum Flaw {
        EMPTY_ID,
        UNKNOWN_ID,
        NEGATIVE_GRACE,
        METADATA_ENTRIES,
        METADATA_BYTES,
        OVERSIZED_BLOB,
        NEGATIVE_EPOCH,
        NEGATIVE_SEQUENCE
    }

    enum Rpc {
        GET,
        CREATE,
        CONFIGURE,
        DRAIN,
        DELETE
    }

    record BadRequest(Flaw flaw, Rpc rpc, long negative, int extra, boolean withToken) {}

    @Provide
    Arbitrary<BadRequest> badRequests() {
        return Combinators.combine(
                        Arbitraries.of(Flaw.class),
                        Arbitraries.of(Rpc.class),
                        Arbitraries.longs().between(Long.MIN_VALUE, -1),
                        Arbitraries.integers().between(1, 200),
                        Arbitraries.of(true, false))
                .as(BadRequest::new);
    }

    @Property(tries = 60)
    @Label(
            "B1205 for seeded random bad requests, the code is always the expected INVALID_ARGUMENT / NOT_FOUND / UNIMPLEMENTED")
    void badRequestsGetTheExpectedCode(@ForAll("badRequests") BadRequest bad) {
        ProviderClient client = ProviderClient.of(Profile.CORE);
        String victim;
        synchronized (VICTIM) {
            victim = VICTIM.computeIfAbsent(client.target(), t -> MachinePool.claimSpeculative(client));
        }
        Shard shard = Shard.fresh();
        Token token = bad.withToken() ? shard.at(1, 1) : Token.NONE;
        Rpc mutation = bad.rpc() == Rpc.GET ? Rpc.CREATE : bad.rpc();
        Outcome<?> outcome;
        Code[] expected;
        switch (bad.flaw()) {
            case EMPTY_ID -> {
                outcome = send(client, bad.rpc(), "", token);
                expected = bad.rpc() == Rpc.DELETE
                        ? new Code[] {Code.INVALID_ARGUMENT, Code.UNIMPLEMENTED}
                        : new Code[] {Code.INVALID_ARGUMENT};
            }
            case UNKNOWN_ID -> {
                outcome = send(client, bad.rpc(), "conformance-unknown-" + UUID.randomUUID(), token);
                expected = bad.rpc() == Rpc.DELETE
                        ? new Code[] {Code.NOT_FOUND, Code.UNIMPLEMENTED}
                        : new Code[] {Code.NOT_FOUND};
            }
            case NEGATIVE_GRACE -> {
                outcome = client.tryDrain(Requests.drain(victim, bad.negative(), token));
                expected = new Code[] {Code.INVALID_ARGUMENT};
            }
            case METADATA_ENTRIES -> {
                outcome = client.tryConfigure(
                        Requests.configure(victim, "b1205", Metadata.manyKeys(256 + bad.extra() * 10), token));
                expected = new Code[] {Code.INVALID_ARGUMENT};
            }
            case METADATA_BYTES -> {
                outcome = client.tryConfigure(Requests.configure(
                        victim,
                        "b1205",
                        Metadata.heavy(1 + bad.extra() % 8, 64 * 1024 + 1024 + bad.extra() * 512),
                        token));
                expected = new Code[] {Code.INVALID_ARGUMENT};
            }
            case OVERSIZED_BLOB -> {
                byte[] blob = new byte[(1 << 20) + 1 + bad.extra() * 1024];
                outcome = client.tryConfigure(Requests.configure(victim, "b1205", Map.of(), token).toBuilder()
                        .setBootstrapBlob(ByteString.copyFrom(blob))
                        .build());
                expected = new Code[] {Code.INVALID_ARGUMENT};
            }
            case NEGATIVE_EPOCH, NEGATIVE_SEQUENCE -> {
                // not a flaw: tokens are signed numbers, so a fresh shard's first contact passes the
                // fence whatever its sign, and an unknown machine is then simply not found
                Token negative = bad.flaw() == Flaw.NEGATIVE_EPOCH
                        ? shard.at(bad.negative(), bad.extra())
                        : shard.at(bad.extra(), bad.negative());
                outcome = send(client, mutation, "conformance-unknown-" + UUID.randomUUID(), negative);
                expected = mutation == Rpc.DELETE
                        ? new Code[] {Code.NOT_FOUND, Code.UNIMPLEMENTED}
                        : new Code[] {Code.NOT_FOUND};
            }
            default -> throw new IllegalStateException(bad.flaw().toString());
        }
        Expect.code(outcome, bad.toString(), expected);
        Machine after = client.get(victim);
        assertThat(after.getState()).as("the real machine after " + bad).isEqualTo(SPECULATIVE);
        assertThat(after.getCluster()).as("cluster after " + bad).isEmpty();
    }

    private static Outcome<?> send(ProviderClient client, Rpc rpc, String id, Token token) {
        return switch (rpc) {
            case GET -> client.tryGet(id);
            case CREATE -> Transition.CREATE.send(client, id, token);
            case CONFIGURE -> Transition.CONFIGURE.send(client, id, token);
            case DRAIN -> Transition.DRAIN.send(client, id, token);
            case DELETE -> Transition.DELETE.send(client, id, token);
        };
    }
}
