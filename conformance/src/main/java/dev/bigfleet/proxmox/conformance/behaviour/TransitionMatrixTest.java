package dev.bigfleet.proxmox.conformance.behaviour;

import static dev.bigfleet.proxmox.conformance.support.States.CONFIGURED;
import static dev.bigfleet.proxmox.conformance.support.States.CONFIGURING;
import static dev.bigfleet.proxmox.conformance.support.States.IDLE;
import static dev.bigfleet.proxmox.conformance.support.States.SPECULATIVE;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.bigfleet.proxmox.conformance.support.Await;
import dev.bigfleet.proxmox.conformance.support.CoreConformance;
import dev.bigfleet.proxmox.conformance.support.Expect;
import dev.bigfleet.proxmox.conformance.support.Metadata;
import dev.bigfleet.proxmox.conformance.support.Outcome;
import dev.bigfleet.proxmox.conformance.support.Requests;
import dev.bigfleet.proxmox.conformance.support.Shard;
import dev.bigfleet.proxmox.conformance.support.States;
import dev.bigfleet.proxmox.conformance.support.Steps;
import dev.bigfleet.proxmox.conformance.support.Token;
import dev.bigfleet.proxmox.conformance.support.Trace;
import dev.bigfleet.proxmox.conformance.support.Transition;
import dev.bigfleet.proxmox.proto.v1alpha1.ConfigureRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.ListFilter;
import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import dev.bigfleet.proxmox.proto.v1alpha1.TransitionAck;
import io.grpc.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Transition matrix and error behaviours B201–B215. */
class TransitionMatrixTest extends CoreConformance {

    private static String unknownId() {
        return "conformance-unknown-" + UUID.randomUUID();
    }

    /** The machine is in {@code state} now and stays there for a moment (no delayed partial transition). */
    private void assertStays(String id, MachineState state, String why) {
        Trace watched = Await.watch(client, id, Duration.ofMillis(300));
        assertThat(watched.states()).as(why + ": states of " + id).containsExactly(state);
    }

    @Test
    @DisplayName("B201 Create on a CONFIGURED machine is rejected and it stays CONFIGURED")
    void createOnConfigured() {
        String id = Steps.configuredMachine(client, "b201", Map.of("k", "v"));
        Expect.rejected(client.tryCreate(Requests.create(id)), "Create on CONFIGURED");
        assertStays(id, CONFIGURED, "after rejected Create");
        assertThat(client.get(id).getCluster()).isEqualTo("b201");
    }

    @Test
    @DisplayName("B202 Configure on a SPECULATIVE machine is rejected and it stays SPECULATIVE")
    void configureOnSpeculative() {
        String id = freshMachine();
        Expect.rejected(
                client.tryConfigure(Requests.configure(id, "b202", Map.of("k", "v"))), "Configure on SPECULATIVE");
        assertStays(id, SPECULATIVE, "after rejected Configure");
        Machine m = client.get(id);
        assertThat(m.getCluster()).as("cluster").isEmpty();
        assertThat(m.getShardMetadataMap()).as("shard_metadata").isEmpty();
    }

    @Test
    @DisplayName("B203 Drain on an IDLE machine leaves it IDLE: rejected, or a no-op when a Drain brought it there")
    void drainOnIdle() {
        // never configured: no Drain brought it to IDLE, so only a rejection is acceptable
        String created = Steps.idleMachine(client);
        Expect.rejected(client.tryDrain(Requests.drain(created)), "Drain on a freshly created IDLE machine");
        assertStays(created, IDLE, "after Drain on a created machine");

        // drained: a repeat Drain may be an idempotent no-op returning the same operation id
        String drained = Steps.configuredMachine(client, "b203", Map.of());
        String drainOp = Steps.drain(client, drained).operationId();
        Outcome<TransitionAck> again = client.tryDrain(Requests.drain(drained));
        if (again.ok()) {
            assertThat(again.response().getOperationId())
                    .as("no-op Drain operation id")
                    .isEqualTo(drainOp);
            assertThat(again.response().getMachine().getState())
                    .as("no-op Drain ack state")
                    .isEqualTo(IDLE);
        } else {
            Expect.rejected(again, "repeat Drain on a drained IDLE machine");
        }
        assertStays(drained, IDLE, "after repeat Drain");
    }

    @Test
    @DisplayName("B204 Delete on SPECULATIVE or CONFIGURED leaves the state unchanged")
    void deleteOnWrongState() {
        String speculative = freshMachine();
        Outcome<TransitionAck> onSpeculative = client.tryDelete(Requests.delete(speculative));
        if (onSpeculative.ok()) {
            assertThat(onSpeculative.response().getMachine().getState())
                    .as("no-op Delete ack")
                    .isEqualTo(SPECULATIVE);
        } else {
            Expect.rejected(onSpeculative, "Delete on SPECULATIVE");
        }
        assertStays(speculative, SPECULATIVE, "after Delete on SPECULATIVE");

        String configured = Steps.configuredMachine(client, "b204", Map.of("k", "v"));
        Expect.rejected(client.tryDelete(Requests.delete(configured)), "Delete on CONFIGURED");
        assertStays(configured, CONFIGURED, "after Delete on CONFIGURED");
        assertThat(States.hostSet(client.get(configured))).as("host kept").isTrue();

        // once a Delete brought it to SPECULATIVE, a repeat is a no-op or a rejection
        String deleted = Steps.idleMachine(client);
        Outcome<TransitionAck> first = client.tryDelete(Requests.delete(deleted));
        if (first.code() != Status.Code.UNIMPLEMENTED) {
            String op = Expect.ok(first, "Delete on IDLE").getOperationId();
            Await.state(client, deleted, SPECULATIVE);
            Outcome<TransitionAck> again = client.tryDelete(Requests.delete(deleted));
            if (again.ok()) {
                assertThat(again.response().getOperationId())
                        .as("no-op Delete operation id")
                        .isEqualTo(op);
            } else {
                Expect.rejected(again, "repeat Delete");
            }
            assertStays(deleted, SPECULATIVE, "after repeat Delete");
        }
    }

    @Test
    @DisplayName("B205 Configure again on CONFIGURED or Create again on IDLE succeeds as a no-op and changes nothing")
    void retriesAreNoOps() {
        String idle = Steps.idleMachine(client);
        Machine before = client.get(idle);
        byte[] cursor = client.listAll().getRevision().toByteArray();
        TransitionAck create = Expect.ok(client.tryCreate(Requests.create(idle)), "Create again on IDLE");
        assertThat(create.getMachine().getState()).as("ack of no-op Create").isEqualTo(IDLE);
        assertStays(idle, IDLE, "after no-op Create");
        assertUnchanged(idle, before, cursor);

        Map<String, String> metadata = Map.of("a", "1", "b", "");
        String configured = Steps.configuredMachine(client, "b205", metadata);
        before = client.get(configured);
        cursor = client.listAll().getRevision().toByteArray();
        TransitionAck configure = Expect.ok(
                client.tryConfigure(Requests.configure(configured, "b205", metadata)), "Configure again on CONFIGURED");
        assertThat(configure.getMachine().getState())
                .as("ack of no-op Configure")
                .isEqualTo(CONFIGURED);
        assertStays(configured, CONFIGURED, "after no-op Configure");
        assertUnchanged(configured, before, cursor);
    }

    private void assertUnchanged(String id, Machine before, byte[] cursor) {
        Machine after = client.get(id);
        assertThat(after).as("snapshot after the no-op").isEqualTo(before);
        List<String> changed = client
                .list(ListFilter.newBuilder()
                        .setSinceRevision(ByteString.copyFrom(cursor))
                        .build())
                .getMachinesList()
                .stream()
                .map(Machine::getId)
                .toList();
        assertThat(changed).as("machines changed since just before the no-op").doesNotContain(id);
    }

    @Test
    @DisplayName("B206 a no-op retry returns the same non-empty operation_id as the transition that reached the state")
    void noOpReturnsSameOperationId() {
        String id = freshMachine();
        String createOp = Steps.create(client, id).operationId();
        assertThat(createOp).as("Create operation id").isNotEmpty();
        assertThat(Expect.ok(client.tryCreate(Requests.create(id)), "Create again")
                        .getOperationId())
                .as("operation id of the no-op Create")
                .isEqualTo(createOp);

        String configureOp = Steps.configure(client, id, "b206", Map.of()).operationId();
        assertThat(configureOp).as("Configure operation id").isNotEmpty();
        assertThat(Expect.ok(client.tryConfigure(Requests.configure(id, "b206")), "Configure again")
                        .getOperationId())
                .as("operation id of the no-op Configure")
                .isEqualTo(configureOp);
    }

    @Test
    @DisplayName("B207 Create/Configure/Drain on an unknown id is NOT_FOUND, never a silent create")
    void unknownIdIsNotFound() {
        String id = unknownId();
        Expect.code(client.tryCreate(Requests.create(id)), "Create unknown", Status.Code.NOT_FOUND);
        Expect.code(client.tryConfigure(Requests.configure(id, "b207")), "Configure unknown", Status.Code.NOT_FOUND);
        Expect.code(client.tryDrain(Requests.drain(id)), "Drain unknown", Status.Code.NOT_FOUND);
        Expect.code(client.tryGet(id), "Get after the mutations", Status.Code.NOT_FOUND);
        assertThat(client.listAll().getMachinesList())
                .extracting(Machine::getId)
                .doesNotContain(id);
    }

    @Test
    @DisplayName("B208 Get/Create/Configure/Drain with an empty id is INVALID_ARGUMENT")
    void emptyIdIsInvalid() {
        Expect.code(client.tryGet(""), "Get empty id", Status.Code.INVALID_ARGUMENT);
        Expect.code(client.tryCreate(Requests.create("")), "Create empty id", Status.Code.INVALID_ARGUMENT);
        Expect.code(
                client.tryConfigure(Requests.configure("", "b208")),
                "Configure empty id",
                Status.Code.INVALID_ARGUMENT);
        Expect.code(client.tryDrain(Requests.drain("")), "Drain empty id", Status.Code.INVALID_ARGUMENT);
    }

    @Test
    @DisplayName(
            "B209 Configure with more metadata than accepted is echoed verbatim or INVALID_ARGUMENT, never partial")
    void tooMuchMetadata() {
        String id = Steps.idleMachine(client);
        Map<String, String> huge = Metadata.manyKeys(5000);
        assertAcceptedVerbatimOrInvalid(id, Requests.configure(id, "b209", huge), huge);
    }

    /** Shared by B209/B213: echo verbatim, or INVALID_ARGUMENT with the machine untouched. */
    private void assertAcceptedVerbatimOrInvalid(String id, ConfigureRequest request, Map<String, String> metadata) {
        Machine before = client.get(id);
        Outcome<TransitionAck> outcome = client.tryConfigure(request);
        if (outcome.ok()) {
            Machine settled = Await.state(client, id, CONFIGURED);
            assertThat(settled.getCluster()).isEqualTo(request.getClusterId());
            Metadata.assertVerbatim(metadata, settled.getShardMetadataMap(), "Get after accepted Configure");
            Steps.drain(client, id);
        } else {
            Expect.code(outcome, "oversized Configure", Status.Code.INVALID_ARGUMENT);
            assertStays(id, IDLE, "after the refused Configure");
            Machine after = client.get(id);
            assertThat(after.getCluster()).as("cluster after refusal").isEmpty();
            assertThat(after.getShardMetadataMap())
                    .as("shard_metadata after refusal")
                    .isEmpty();
            assertThat(after).as("snapshot after refusal").isEqualTo(before);
        }
    }

    @Test
    @DisplayName("B210 Drain with a negative grace period is INVALID_ARGUMENT and the machine stays CONFIGURED")
    void negativeGrace() {
        String id = Steps.configuredMachine(client, "b210", Map.of("k", "v"));
        Expect.code(
                client.tryDrain(Requests.drain(id, -1, Token.NONE)), "Drain grace -1", Status.Code.INVALID_ARGUMENT);
        Expect.code(
                client.tryDrain(Requests.drain(id, Long.MIN_VALUE, Token.NONE)),
                "Drain grace MIN",
                Status.Code.INVALID_ARGUMENT);
        assertStays(id, CONFIGURED, "after negative-grace Drains");
        assertThat(client.get(id).getCluster()).isEqualTo("b210");
    }

    @Test
    @DisplayName(
            "B211 a mutation with a negative epoch or sequence and a non-empty shard_id is never FAILED_PRECONDITION on first contact, and later tokens compare as signed numbers")
    void negativeTokenParts() {
        List<Token> firstContacts = List.of(
                Shard.fresh().at(-1, 1),
                Shard.fresh().at(1, -1),
                Shard.fresh().at(-7, -3),
                Shard.fresh().at(Long.MIN_VALUE, 5),
                Shard.fresh().at(5, Long.MIN_VALUE));
        List<String> failures = new ArrayList<>();
        for (Token token : firstContacts) {
            String id = freshMachine();
            Outcome<TransitionAck> outcome = Transition.CREATE.send(client, id, token);
            if (outcome.code() == Status.Code.OK) {
                // a first contact is accepted whatever its numbers: the Create runs its legal edge
                Await.state(client, id, IDLE);
            } else if (outcome.code() == Status.Code.INVALID_ARGUMENT) {
                assertStays(id, SPECULATIVE, "after a refused negative token " + token);
            } else {
                failures.add("first contact " + token + " -> " + outcome);
            }
        }
        assertThat(failures)
                .as("negative first contacts answered neither OK nor INVALID_ARGUMENT")
                .isEmpty();

        // on one (shard, machine): (6,-1) after (6,1) is stale, (7,-1) after it is newer
        String id = freshMachine();
        Shard shard = Shard.fresh();
        Expect.ok(client.tryCreate(Requests.create(id, shard.at(6, 1))), "Create at (6,1)");
        Await.state(client, id, IDLE);
        Expect.fenced(client.tryConfigure(Requests.configure(id, "b211", Map.of(), shard.at(6, -1))), "(6,-1)");
        Expect.fenced(
                client.tryConfigure(Requests.configure(id, "b211", Map.of(), shard.at(Long.MIN_VALUE, 9))), "(MIN,9)");
        assertStays(id, IDLE, "after stale negative tokens");
        Expect.ok(client.tryConfigure(Requests.configure(id, "b211", Map.of(), shard.at(7, -1))), "(7,-1)");
        Await.state(client, id, CONFIGURED);
        Expect.fenced(client.tryDrain(Requests.drain(id, 0, shard.at(7, -2))), "(7,-2) after (7,-1)");
        Expect.ok(client.tryDrain(Requests.drain(id, 0, shard.at(7, 0))), "(7,0) after (7,-1)");
        Await.state(client, id, IDLE);
    }

    @Test
    @DisplayName(
            "B212 a Configure with int64-max epoch and sequence from a fresh shard is accepted and sets the mark without overflow")
    void maxToken() {
        String id = Steps.idleMachine(client);
        Shard shard = Shard.fresh();
        Token max = shard.at(Long.MAX_VALUE, Long.MAX_VALUE);
        TransitionAck ack =
                Expect.ok(client.tryConfigure(Requests.configure(id, "b212", Map.of(), max)), "Configure at max");
        assertThat(ack.getMachine().getState()).isIn(CONFIGURING, CONFIGURED);
        Await.state(client, id, CONFIGURED);
        // the mark is (MAX, MAX): nothing from this shard can be newer, and no wrap-around lets a low one in
        Expect.fenced(client.tryDrain(Requests.drain(id, max)), "Drain replaying (MAX, MAX)");
        Expect.fenced(
                client.tryDrain(Requests.drain(id, shard.at(Long.MAX_VALUE, Long.MAX_VALUE - 1))),
                "Drain (MAX, MAX-1)");
        Expect.fenced(client.tryDrain(Requests.drain(id, shard.at(0, 1))), "Drain (0, 1)");
        Expect.fenced(client.tryDrain(Requests.drain(id, shard.at(1, 0))), "Drain (1, 0)");
        assertStays(id, CONFIGURED, "after fenced Drains");
        Steps.drain(client, id);
    }

    @Test
    @DisplayName("B213 a Configure with an oversized bootstrap_blob is accepted or INVALID_ARGUMENT, never partial")
    void oversizedBlob() {
        String id = Steps.idleMachine(client);
        byte[] blob = new byte[(1 << 20) + 4096];
        for (int i = 0; i < blob.length; i++) {
            blob[i] = (byte) (i * 31);
        }
        ConfigureRequest request = Requests.configure(id, "b213", Map.of("k", "v")).toBuilder()
                .setBootstrapBlob(ByteString.copyFrom(blob))
                .build();
        assertAcceptedVerbatimOrInvalid(id, request, Map.of("k", "v"));
    }

    @Test
    @DisplayName("B214 successive different transitions on one machine get distinct operation_ids")
    void distinctOperationIds() {
        String id = freshMachine();
        List<String> ops = new ArrayList<>();
        ops.add(Steps.create(client, id).operationId());
        ops.add(Steps.configure(client, id, "b214-a", Map.of()).operationId());
        ops.add(Steps.drain(client, id).operationId());
        ops.add(Steps.configure(client, id, "b214-b", Map.of()).operationId());
        ops.add(Steps.drain(client, id).operationId());
        Outcome<TransitionAck> delete = client.tryDelete(Requests.delete(id));
        if (delete.code() != Status.Code.UNIMPLEMENTED) {
            ops.add(Expect.ok(delete, "Delete").getOperationId());
            Await.state(client, id, SPECULATIVE);
            ops.add(Steps.create(client, id).operationId());
        }
        assertThat(ops).as("operation ids").doesNotContain("").doesNotHaveDuplicates();
    }

    @Test
    @DisplayName("B215 Get on an unknown id is NOT_FOUND; Delete on an unknown id is NOT_FOUND or UNIMPLEMENTED")
    void unknownGetAndDelete() {
        String id = unknownId();
        Expect.code(client.tryGet(id), "Get unknown", Status.Code.NOT_FOUND);
        Expect.code(
                client.tryDelete(Requests.delete(id)),
                "Delete unknown",
                Status.Code.NOT_FOUND,
                Status.Code.UNIMPLEMENTED);
        Expect.code(client.tryGet(id), "Get unknown after Delete", Status.Code.NOT_FOUND);
    }
}
