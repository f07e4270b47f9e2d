package dev.bigfleet.proxmox.conformance.behaviour;

import static dev.bigfleet.proxmox.conformance.support.States.CONFIGURED;
import static dev.bigfleet.proxmox.conformance.support.States.IDLE;
import static dev.bigfleet.proxmox.conformance.support.States.SPECULATIVE;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.bigfleet.proxmox.conformance.support.Await;
import dev.bigfleet.proxmox.conformance.support.CoreConformance;
import dev.bigfleet.proxmox.conformance.support.Expect;
import dev.bigfleet.proxmox.conformance.support.Outcome;
import dev.bigfleet.proxmox.conformance.support.Steps;
import dev.bigfleet.proxmox.proto.v1alpha1.ListFilter;
import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineList;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * List, revision and paging behaviours B901–B909. Every test in the suite leaves its machines
 * settled, so between tests nothing changes and deltas can be asserted exactly.
 */
class ListRevisionTest extends CoreConformance {

    private static Set<String> ids(MachineList list) {
        return list.getMachinesList().stream().map(Machine::getId).collect(Collectors.toSet());
    }

    private MachineList since(ByteString cursor) {
        return client.list(ListFilter.newBuilder().setSinceRevision(cursor).build());
    }

    @Test
    @DisplayName("B901 filtering by one state returns only that state; several states return exactly their union")
    void stateFilter() {
        String idle = Steps.idleMachine(client);
        String configured = Steps.configuredMachine(client, "b901", Map.of());
        MachineList all = client.listAll();
        for (MachineState state : List.of(SPECULATIVE, IDLE, CONFIGURED)) {
            MachineList filtered = client.listStates(state);
            assertThat(filtered.getMachinesList())
                    .extracting(Machine::getState)
                    .as("List(" + state + ")")
                    .containsOnly(state);
            Set<String> expected = all.getMachinesList().stream()
                    .filter(m -> m.getState() == state)
                    .map(Machine::getId)
                    .collect(Collectors.toSet());
            assertThat(ids(filtered)).as("List(" + state + ") vs the full list").isEqualTo(expected);
        }
        MachineList union = client.listStates(IDLE, CONFIGURED);
        Set<String> expected = all.getMachinesList().stream()
                .filter(m -> m.getState() == IDLE || m.getState() == CONFIGURED)
                .map(Machine::getId)
                .collect(Collectors.toSet());
        assertThat(ids(union)).as("List(IDLE, CONFIGURED)").isEqualTo(expected).contains(idle, configured);
        assertThat(union.getMachinesCount()).as("no machine twice in the union").isEqualTo(expected.size());
    }

    @Test
    @DisplayName("B902 max_results 1, 2, 3 never returns more than the cap; 0 means no cap")
    void maxResults() {
        int total = client.listAll().getMachinesCount();
        assertThat(total).as("inventory size").isGreaterThan(3);
        for (int cap = 1; cap <= 3; cap++) {
            MachineList page =
                    client.list(ListFilter.newBuilder().setMaxResults(cap).build());
            assertThat(page.getMachinesCount())
                    .as("List(max_results=" + cap + ")")
                    .isBetween(1, cap);
            MachineList idle = client.list(ListFilter.newBuilder()
                    .setMaxResults(cap)
                    .addStates(SPECULATIVE)
                    .build());
            assertThat(idle.getMachinesCount())
                    .as("List(SPECULATIVE, max_results=" + cap + ")")
                    .isBetween(1, cap);
        }
        assertThat(client.list(ListFilter.newBuilder().setMaxResults(0).build()).getMachinesCount())
                .as("List(max_results=0)")
                .isEqualTo(total);
        // a shard picking machines with back-to-back capped Lists gets different ones
        List<String> picked = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            for (Machine m : client.list(ListFilter.newBuilder()
                            .setMaxResults(1)
                            .addStates(SPECULATIVE)
                            .build())
                    .getMachinesList()) {
                picked.add(m.getId());
            }
        }
        assertThat(picked)
                .as("three back-to-back List(SPECULATIVE, max_results=1)")
                .hasSize(3)
                .doesNotHaveDuplicates();
    }

    @Test
    @DisplayName(
            "B903 the revision changes after a mutation and a delta since the previous cursor contains the mutated machine")
    void revisionMovesWithMutation() {
        String id = freshMachine();
        ByteString before = client.listAll().getRevision();
        Steps.create(client, id);
        ByteString after = client.listAll().getRevision();
        assertThat(after).as("revision after a Create").isNotEqualTo(before);
        MachineList delta = since(before);
        assertThat(ids(delta)).as("delta since the cursor before the Create").contains(id);
        assertThat(delta.getMachinesList().stream()
                        .filter(m -> m.getId().equals(id))
                        .findFirst()
                        .orElseThrow()
                        .getState())
                .as("state of the mutated machine in the delta")
                .isEqualTo(IDLE);
    }

    @Test
    @DisplayName("B904 a delta since the current revision with nothing changed is empty")
    void emptyDelta() {
        ByteString cursor = client.listAll().getRevision();
        assertThat(since(cursor).getMachinesList())
                .extracting(Machine::getId)
                .as("delta with nothing changed")
                .isEmpty();
        assertThat(since(cursor).getMachinesList())
                .extracting(Machine::getId)
                .as("same delta again")
                .isEmpty();
    }

    @Test
    @DisplayName(
            "B905 over many mutations every revision differs from the last and a delta from an earlier cursor has every later change")
    void deltasAccumulate() {
        List<String> ids = List.of(freshMachine(), freshMachine(), freshMachine());
        List<ByteString> cursors = new ArrayList<>();
        List<String> changed = new ArrayList<>();
        cursors.add(client.listAll().getRevision());
        List<Runnable> steps = List.of(
                () -> Steps.create(client, ids.get(0)),
                () -> Steps.create(client, ids.get(1)),
                () -> Steps.configure(client, ids.get(0), "b905", Map.of("step", "3")),
                () -> Steps.create(client, ids.get(2)),
                () -> Steps.drain(client, ids.get(0)),
                () -> Steps.configure(client, ids.get(1), "b905", Map.of()),
                () -> Steps.configure(client, ids.get(2), "b905", Map.of()));
        List<String> stepMachine =
                List.of(ids.get(0), ids.get(1), ids.get(0), ids.get(2), ids.get(0), ids.get(1), ids.get(2));
        for (int i = 0; i < steps.size(); i++) {
            steps.get(i).run();
            changed.add(stepMachine.get(i));
            ByteString cursor = client.listAll().getRevision();
            assertThat(cursor).as("revision after step " + (i + 1)).isNotEqualTo(cursors.get(cursors.size() - 1));
            cursors.add(cursor);
        }
        for (int i = 0; i < cursors.size(); i++) {
            Set<String> expected = new HashSet<>(changed.subList(i, changed.size()));
            Set<String> delta = ids(since(cursors.get(i)));
            assertThat(delta).as("delta since the cursor taken after step " + i).containsAll(expected);
        }
        assertThat(ids(since(cursors.get(cursors.size() - 1))))
                .as("delta since the last cursor")
                .isEmpty();
    }

    @Test
    @DisplayName("B906 a garbage, zero or non-cursor since_revision gives the full list without error")
    void garbageCursorIsFullList() {
        Set<String> all = ids(client.listAll());
        Map<String, ByteString> garbage = new LinkedHashMap<>();
        garbage.put("text", ByteString.copyFrom("not-a-cursor", StandardCharsets.UTF_8));
        garbage.put("ASCII zero", ByteString.copyFrom("0", StandardCharsets.UTF_8));
        garbage.put("one zero byte", ByteString.copyFrom(new byte[1]));
        garbage.put("eight zero bytes", ByteString.copyFrom(new byte[8]));
        garbage.put("high bytes", ByteString.copyFrom(new byte[] {(byte) 0xff, (byte) 0xfe, 0x00, 0x7f, (byte) 0x80}));
        garbage.put("minus one", ByteString.copyFrom("-1", StandardCharsets.UTF_8));
        byte[] noise = new byte[64];
        new java.util.Random(906).nextBytes(noise);
        garbage.put("64 random bytes", ByteString.copyFrom(noise));
        for (Map.Entry<String, ByteString> g : garbage.entrySet()) {
            Outcome<MachineList> outcome = client.tryList(
                    ListFilter.newBuilder().setSinceRevision(g.getValue()).build());
            MachineList list = Expect.ok(outcome, "List since " + g.getKey());
            assertThat(ids(list)).as("List since " + g.getKey()).isEqualTo(all);
        }
    }

    @Test
    @DisplayName(
            "B907 paging with max_results and the returned cursors walks the whole set with no duplicate and no gap")
    void pagingWalksEverything() {
        Set<String> all = ids(client.listAll());
        for (int cap : new int[] {97, 500}) {
            List<String> seen = new ArrayList<>();
            ListFilter.Builder filter = ListFilter.newBuilder().setMaxResults(cap);
            int pages = 0;
            int limit = all.size() / cap + 5;
            while (true) {
                MachineList page = client.list(filter.build());
                assertThat(page.getMachinesCount())
                        .as("page " + pages + " size")
                        .isLessThanOrEqualTo(cap);
                if (page.getMachinesCount() == 0) {
                    break;
                }
                page.getMachinesList().forEach(m -> seen.add(m.getId()));
                filter.setSinceRevision(page.getRevision());
                pages++;
                assertThat(pages)
                        .as("pages walked with max_results " + cap + " for " + all.size() + " machines")
                        .isLessThanOrEqualTo(limit);
            }
            assertThat(seen).as("ids walked with max_results " + cap).doesNotHaveDuplicates();
            assertThat(new HashSet<>(seen))
                    .as("ids walked with max_results " + cap)
                    .isEqualTo(all);
        }
    }

    @Test
    @DisplayName("B908 with no mutations, background reconcile ticks do not bump the revision: deltas stay empty")
    void reconcileDoesNotBumpRevision() {
        ByteString cursor = client.listAll().getRevision();
        for (int i = 0; i < 8; i++) {
            Await.sleep(350);
            assertThat(ids(since(cursor)))
                    .as("delta after " + (i + 1) * 350 + " ms of quiet")
                    .isEmpty();
        }
        ByteString later = client.listAll().getRevision();
        assertThat(ids(since(later))).as("delta from a fresh cursor").isEmpty();
    }

    @Test
    @DisplayName(
            "B909 a cursor fed back byte-for-byte is accepted; a byte-altered copy gives a full list, not an error")
    void alteredCursor() {
        Set<String> all = ids(client.listAll());
        ByteString cursor = client.listAll().getRevision();
        assertThat(cursor.isEmpty()).as("List returns a non-empty revision").isFalse();
        MachineList delta = Expect.ok(
                client.tryList(ListFilter.newBuilder().setSinceRevision(cursor).build()),
                "List since the cursor as returned");
        assertThat(ids(delta))
                .as("delta since an untouched cursor (nothing changed)")
                .isEmpty();

        byte[] bytes = cursor.toByteArray();
        Set<Integer> positions = new java.util.TreeSet<>(List.of(0, bytes.length / 2, bytes.length - 1));
        for (int i = 0; i < bytes.length && positions.size() < 8; i += Math.max(1, bytes.length / 5)) {
            positions.add(i);
        }
        for (int pos : positions) {
            byte[] altered = bytes.clone();
            altered[pos] ^= (byte) 0xff;
            MachineList list = Expect.ok(
                    client.tryList(ListFilter.newBuilder()
                            .setSinceRevision(ByteString.copyFrom(altered))
                            .build()),
                    "List since a cursor altered at byte " + pos);
            assertThat(ids(list))
                    .as("List since a cursor altered at byte " + pos)
                    .isEqualTo(all);
        }
    }
}
