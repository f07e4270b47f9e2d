package dev.bigfleet.proxmox.conformance.behaviour;

import static dev.bigfleet.proxmox.conformance.support.States.CONFIGURED;
import static dev.bigfleet.proxmox.conformance.support.States.CONFIGURING;
import static dev.bigfleet.proxmox.conformance.support.States.IDLE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.conformance.support.Await;
import dev.bigfleet.proxmox.conformance.support.CoreConformance;
import dev.bigfleet.proxmox.conformance.support.Expect;
import dev.bigfleet.proxmox.conformance.support.Metadata;
import dev.bigfleet.proxmox.conformance.support.Outcome;
import dev.bigfleet.proxmox.conformance.support.Requests;
import dev.bigfleet.proxmox.conformance.support.States;
import dev.bigfleet.proxmox.conformance.support.Steps;
import dev.bigfleet.proxmox.conformance.support.Trace;
import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.TransitionAck;
import io.grpc.Status;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Metadata behaviours B501–B505: shard_metadata is stored and echoed verbatim, and cleared by Drain. */
class MetadataTest extends CoreConformance {

    @Test
    @DisplayName(
            "B501 a 55-entry map with NUL, control bytes, unicode and empty values is echoed byte-for-byte by Get and List")
    void awkwardMapEchoedVerbatim() {
        Map<String, String> metadata = Metadata.awkward(55);
        assertThat(metadata).hasSize(55);
        String id = Steps.configuredMachine(client, "b501", metadata);
        for (int i = 0; i < 3; i++) {
            Metadata.assertVerbatim(metadata, client.get(id).getShardMetadataMap(), "Get #" + i);
            Machine listed = client.findInList(id, CONFIGURED)
                    .orElseThrow(() -> new AssertionError(id + " missing from List(CONFIGURED)"));
            Metadata.assertVerbatim(metadata, listed.getShardMetadataMap(), "List(CONFIGURED) #" + i);
        }
    }

    @Test
    @DisplayName(
            "B502 metadata and cluster clear when the Drain settles; a later Configure with a disjoint map shows none of the old keys")
    void drainClearsMetadata() {
        Map<String, String> first = Map.of("old-a", "1", "old-b", "2", "shared-value", "x");
        String id = Steps.configuredMachine(client, "b502-first", first);
        Machine idle = Steps.drain(client, id).settled();
        assertThat(idle.getCluster()).as("cluster after Drain").isEmpty();
        assertThat(idle.getShardMetadataMap()).as("shard_metadata after Drain").isEmpty();

        Map<String, String> second = Map.of("new-c", "3", "new-d", "x");
        Machine again = Steps.configure(client, id, "b502-second", second).settled();
        assertThat(again.getCluster()).isEqualTo("b502-second");
        Metadata.assertVerbatim(second, again.getShardMetadataMap(), "Get after the second Configure");
    }

    @Test
    @DisplayName("B503 an oversized or many-key map is echoed verbatim or INVALID_ARGUMENT, never truncated")
    void oversizedMapsNeverTruncated() {
        String id = Steps.idleMachine(client);
        Map<String, Map<String, String>> cases = new LinkedHashMap<>();
        cases.put("256 entries", Metadata.manyKeys(256));
        cases.put("300 entries", Metadata.manyKeys(300));
        cases.put("4 entries totalling 80 KiB", Metadata.heavy(4, 80 * 1024));
        cases.put("one 200 KiB value", Metadata.heavy(1, 200 * 1024));
        for (Map.Entry<String, Map<String, String>> c : cases.entrySet()) {
            String what = c.getKey() + " (" + Metadata.bytes(c.getValue()) + " bytes)";
            Outcome<TransitionAck> outcome = client.tryConfigure(Requests.configure(id, "b503", c.getValue()));
            if (outcome.ok()) {
                Metadata.assertVerbatim(
                        c.getValue(), outcome.response().getMachine().getShardMetadataMap(), what + " ack");
                Machine settled = Await.state(client, id, CONFIGURED);
                Metadata.assertVerbatim(c.getValue(), settled.getShardMetadataMap(), what + " Get");
                Steps.drain(client, id);
            } else {
                Expect.code(outcome, what, Status.Code.INVALID_ARGUMENT);
                Machine after = client.get(id);
                assertThat(after.getState()).as(what + " refused: state").isEqualTo(IDLE);
                assertThat(after.getShardMetadataMap())
                        .as(what + " refused: shard_metadata")
                        .isEmpty();
                assertThat(after.getCluster()).as(what + " refused: cluster").isEmpty();
            }
        }
    }

    @Test
    @DisplayName("B504 metadata is already visible verbatim in CONFIGURING and certainly in CONFIGURED")
    void metadataVisibleWhileConfiguring() {
        String id = Steps.idleMachine(client);
        Map<String, String> metadata = Metadata.awkward(20);
        TransitionAck ack = Expect.ok(client.tryConfigure(Requests.configure(id, "b504", metadata)), "Configure");
        Trace trace = new Trace().add(ack.getMachine());
        Machine settled = Await.follow(client, id, trace);
        int configuring = 0;
        for (Machine m : trace.observed()) {
            if (m.getState() == CONFIGURING) {
                configuring++;
                Metadata.assertVerbatim(metadata, m.getShardMetadataMap(), "CONFIGURING snapshot");
            }
        }
        assertThat(configuring).as("the ack is a CONFIGURING snapshot").isPositive();
        assertThat(settled.getState()).isEqualTo(CONFIGURED);
        Metadata.assertVerbatim(metadata, settled.getShardMetadataMap(), "CONFIGURED snapshot");
    }

    @Test
    @DisplayName("B505 changing the caller's map after the Configure ack does not change what the provider stored")
    void storedMapIsACopy() {
        String id = Steps.idleMachine(client);
        Map<String, String> callers = new HashMap<>(Map.of("owner", "b505", "replicas", "3"));
        Map<String, String> sent = Map.copyOf(callers);
        Expect.ok(client.tryConfigure(Requests.configure(id, "b505", callers)), "Configure");
        callers.put("owner", "someone-else");
        callers.put("injected", "yes");
        callers.remove("replicas");
        Metadata.assertVerbatim(
                sent, Await.state(client, id, CONFIGURED).getShardMetadataMap(), "after the caller's edit");

        // the edited map sent again as a retry: accepted as a no-op or refused, but never stored
        Outcome<TransitionAck> retry = client.tryConfigure(Requests.configure(id, "b505", callers));
        Expect.notFenced(retry, "Configure retry with the edited map");
        Machine after = Await.settled(client, id);
        assertThat(after.getState()).as(States.describe(after)).isEqualTo(CONFIGURED);
        Metadata.assertVerbatim(sent, after.getShardMetadataMap(), "after a retry with the edited map");
        for (Machine m : Await.watch(client, id, Duration.ofMillis(300)).observed()) {
            Metadata.assertVerbatim(sent, m.getShardMetadataMap(), "while watching");
        }
    }
}
