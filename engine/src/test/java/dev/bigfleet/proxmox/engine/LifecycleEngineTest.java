package dev.bigfleet.proxmox.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.bigfleet.proxmox.api.FenceToken;
import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.api.MachineState;
import dev.bigfleet.proxmox.engine.store.InMemoryStateStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class LifecycleEngineTest {
    private static final FenceToken NO_TOKEN = FenceToken.NONE;
    private EngineUnderTest under;
    private ScriptedBackend backend;
    private LifecycleEngine engine;
    private List<String> ids;

    @BeforeEach
    void setUp() throws Exception {
        Duration t = Duration.ofMillis(300);
        under = new EngineUnderTest(new InMemoryStateStore(), new TransitionTimeouts(t, t, t, t), 20);
        backend = under.backend;
        engine = under.engine;
        ids = under.ids;
    }

    @AfterEach
    void tearDown() {
        under.close();
    }

    private RejectionReason rejection(MutationRequest request) {
        try {
            engine.mutate(request);
        } catch (RejectedException e) {
            return e.reason();
        }
        throw new AssertionError("expected " + request + " to be rejected");
    }

    private Machine awaitState(String id, MachineState state) {
        await().atMost(Duration.ofSeconds(10))
                .until(() -> engine.get(id).orElseThrow().state() == state);
        return engine.get(id).orElseThrow();
    }

    private void toIdle(String id) throws Exception {
        engine.mutate(MutationRequest.create(id, NO_TOKEN));
        awaitState(id, MachineState.IDLE);
    }

    private void toConfigured(String id, String cluster) throws Exception {
        toIdle(id);
        engine.mutate(MutationRequest.configure(id, NO_TOKEN, cluster, new byte[] {1}, Map.of("k", "v")));
        awaitState(id, MachineState.CONFIGURED);
    }

    @Test
    void shapeIsCheckedBeforeFencingSoAnInvalidCallLeavesNoMark() throws Exception {
        String id = ids.get(0);
        toIdle(id);
        FenceToken high = new FenceToken("s", 9, 9);
        assertThat(rejection(MutationRequest.configure(id, high, "", new byte[0], Map.of())))
                .isEqualTo(RejectionReason.INVALID_ARGUMENT);
        // the invalid call did not set a mark at (9,9): a lower token still passes
        Accepted ack =
                engine.mutate(MutationRequest.configure(id, new FenceToken("s", 1, 1), "c", new byte[0], Map.of()));
        assertThat(ack.machine().state()).isEqualTo(MachineState.CONFIGURING);
    }

    @Test
    void fenceRunsBeforeNotFound() {
        assertThat(rejection(MutationRequest.create("nope", new FenceToken("s", 5, 0))))
                .isEqualTo(RejectionReason.NOT_FOUND);
        assertThat(rejection(MutationRequest.create("nope", new FenceToken("s", 4, 0))))
                .isEqualTo(RejectionReason.FENCED);
        assertThat(rejection(MutationRequest.create("nope", new FenceToken("other-shard", 1, 0))))
                .isEqualTo(RejectionReason.NOT_FOUND);
    }

    @Test
    void negativeTokensAreComparedAsSignedNumbers() throws Exception {
        String id = ids.get(0);
        // a negative first contact is accepted like any other first contact
        Accepted first = engine.mutate(MutationRequest.create(id, new FenceToken("s", -7, -3)));
        assertThat(first.machine().state()).isEqualTo(MachineState.CREATING);
        awaitState(id, MachineState.IDLE);
        // (-7,-2) is newer than (-7,-3): it passes the fence and meets the wrong state
        assertThat(rejection(MutationRequest.drain(id, new FenceToken("s", -7, -2), 0)))
                .isEqualTo(RejectionReason.CONFLICT);
        assertThat(rejection(MutationRequest.drain(id, new FenceToken("s", -7, -2), 0)))
                .isEqualTo(RejectionReason.FENCED);
        // (6,1) is newer still; then (6,-1) is older than (6,1) and (7,-1) newer
        engine.mutate(MutationRequest.configure(id, new FenceToken("s", 6, 1), "c", new byte[0], Map.of()));
        awaitState(id, MachineState.CONFIGURED);
        assertThat(rejection(MutationRequest.drain(id, new FenceToken("s", 6, -1), 0)))
                .isEqualTo(RejectionReason.FENCED);
        assertThat(rejection(MutationRequest.drain(id, new FenceToken("s", Long.MIN_VALUE, Long.MAX_VALUE), 0)))
                .isEqualTo(RejectionReason.FENCED);
        Accepted drain = engine.mutate(MutationRequest.drain(id, new FenceToken("s", 7, -1), 0));
        assertThat(drain.machine().state()).isEqualTo(MachineState.DRAINING);
        assertThat(rejection(MutationRequest.drain(id, new FenceToken("s", 7, Long.MIN_VALUE), 0)))
                .isEqualTo(RejectionReason.FENCED);
    }

    @Test
    void fenceRunsBeforeTheIdempotentRetry() throws Exception {
        String id = ids.get(0);
        FenceToken token = new FenceToken("s", 1, 1);
        engine.mutate(MutationRequest.create(id, token));
        assertThat(rejection(MutationRequest.create(id, token))).isEqualTo(RejectionReason.FENCED);
        Accepted retry = engine.mutate(MutationRequest.create(id, new FenceToken("s", 1, 2)));
        assertThat(retry.operationId()).isNotEmpty();
    }

    @Test
    void aPassingTokenAdvancesTheMarkEvenWhenTheCallIsOutOfPosition() throws Exception {
        String id = ids.get(0);
        assertThat(rejection(MutationRequest.drain(id, new FenceToken("s", 1, 5), 0)))
                .isEqualTo(RejectionReason.CONFLICT);
        assertThat(rejection(MutationRequest.create(id, new FenceToken("s", 1, 5))))
                .isEqualTo(RejectionReason.FENCED);
        Accepted ack = engine.mutate(MutationRequest.create(id, new FenceToken("s", 1, 6)));
        assertThat(ack.machine().state()).isEqualTo(MachineState.CREATING);
    }

    @Test
    void retriesReturnTheSameOperationAndStartNothingNew() throws Exception {
        String id = ids.get(0);
        Accepted first = engine.mutate(MutationRequest.create(id, NO_TOKEN));
        Accepted again = engine.mutate(MutationRequest.create(id, NO_TOKEN));
        assertThat(again.operationId()).isEqualTo(first.operationId());
        awaitState(id, MachineState.IDLE);
        assertThat(engine.mutate(MutationRequest.create(id, NO_TOKEN)).operationId())
                .isEqualTo(first.operationId());
        assertThat(backend.clones.get()).isEqualTo(1);
    }

    @Test
    void aReconfigureForAnotherClusterConflictsAndChangesNothing() throws Exception {
        String id = ids.get(0);
        toConfigured(id, "alpha");
        Machine before = engine.get(id).orElseThrow();
        assertThat(rejection(MutationRequest.configure(id, NO_TOKEN, "beta", new byte[0], Map.of())))
                .isEqualTo(RejectionReason.CONFLICT);
        assertThat(engine.get(id).orElseThrow()).isEqualTo(before);
    }

    @Test
    void retriesMatchOnlyTheLastOperationNotAnOlderOneThatReachedTheSameState() throws Exception {
        String id = ids.get(0);
        toConfigured(id, "c");
        Accepted drain = engine.mutate(MutationRequest.drain(id, NO_TOKEN, 30));
        awaitState(id, MachineState.IDLE);
        // Idle again, but the Create that once reached Idle is not what brought it here
        assertThat(rejection(MutationRequest.create(id, NO_TOKEN))).isEqualTo(RejectionReason.CONFLICT);
        assertThat(engine.mutate(MutationRequest.drain(id, NO_TOKEN, 30)).operationId())
                .isEqualTo(drain.operationId());
    }

    @Test
    void configureStoresClusterAndMetadataAtAcceptAndDrainClearsThem() throws Exception {
        String id = ids.get(0);
        toIdle(id);
        backend.script(id, ScriptedBackend.Script.BLOCK);
        Map<String, String> metadata = new HashMap<>(Map.of("a", "\u0000\u0001", "b", "ünï", "c", ""));
        Accepted ack = engine.mutate(MutationRequest.configure(id, NO_TOKEN, "c1", new byte[] {7, 7}, metadata));
        metadata.put("a", "changed by the caller");
        assertThat(ack.machine().state()).isEqualTo(MachineState.CONFIGURING);
        Machine configuring = engine.get(id).orElseThrow();
        assertThat(configuring.cluster()).isEqualTo("c1");
        assertThat(configuring.shardMetadata())
                .containsExactlyInAnyOrderEntriesOf(Map.of("a", "\u0000\u0001", "b", "ünï", "c", ""));
        backend.script(id, ScriptedBackend.Script.OK);
        backend.release.countDown();
        awaitState(id, MachineState.CONFIGURED);
        assertThat(backend.blobs.get(id)).containsExactly(7, 7);
        engine.mutate(MutationRequest.drain(id, NO_TOKEN, 0));
        Machine idle = awaitState(id, MachineState.IDLE);
        assertThat(idle.cluster()).isEmpty();
        assertThat(idle.shardMetadata()).isEmpty();
        assertThat(idle.host().isEmpty()).isFalse();
        engine.mutate(MutationRequest.delete(id, NO_TOKEN));
        Machine speculative = awaitState(id, MachineState.SPECULATIVE);
        assertThat(speculative.host().isEmpty()).isTrue();
    }

    @Test
    void aTimedOutTransitionFailsAndItsLateSuccessIsDiscarded() throws Exception {
        String id = ids.get(0);
        backend.script(id, ScriptedBackend.Script.LATE_OK);
        engine.mutate(MutationRequest.create(id, NO_TOKEN));
        Machine failed = awaitState(id, MachineState.FAILED);
        assertThat(failed.lastError()).isEqualTo("create transition timed out after 300ms");
        Thread.sleep(600);
        assertThat(engine.get(id).orElseThrow()).isEqualTo(failed);
    }

    @Test
    void aBugInTheBackendFailsThatMachineOnly() throws Exception {
        backend.script(ids.get(0), ScriptedBackend.Script.THROW);
        engine.mutate(MutationRequest.create(ids.get(0), NO_TOKEN));
        engine.mutate(MutationRequest.create(ids.get(1), NO_TOKEN));
        assertThat(awaitState(ids.get(0), MachineState.FAILED).lastError()).contains("internal error");
        awaitState(ids.get(1), MachineState.IDLE);
    }

    @Test
    void aFailedMachineRejectsEveryMutationAndKeepsItsError() throws Exception {
        String id = ids.get(0);
        backend.script(id, ScriptedBackend.Script.FAIL);
        engine.mutate(MutationRequest.create(id, NO_TOKEN));
        Machine failed = awaitState(id, MachineState.FAILED);
        assertThat(failed.lastError()).isEqualTo("scripted failure for " + id);
        assertThat(rejection(MutationRequest.create(id, NO_TOKEN))).isEqualTo(RejectionReason.CONFLICT);
        assertThat(rejection(MutationRequest.configure(id, NO_TOKEN, "c", new byte[0], Map.of())))
                .isEqualTo(RejectionReason.CONFLICT);
        assertThat(rejection(MutationRequest.drain(id, NO_TOKEN, 0))).isEqualTo(RejectionReason.CONFLICT);
        assertThat(rejection(MutationRequest.delete(id, NO_TOKEN))).isEqualTo(RejectionReason.CONFLICT);
        assertThat(engine.get(id).orElseThrow()).isEqualTo(failed);
    }

    @Test
    void oversizedInputIsRefusedWhole() throws Exception {
        String id = ids.get(0);
        toIdle(id);
        Map<String, String> tooMany = new HashMap<>();
        for (int i = 0; i <= RequestLimits.MAX_METADATA_ENTRIES; i++) {
            tooMany.put("k" + i, "v");
        }
        assertThat(rejection(MutationRequest.configure(id, NO_TOKEN, "c", new byte[0], tooMany)))
                .isEqualTo(RejectionReason.INVALID_ARGUMENT);
        assertThat(rejection(MutationRequest.configure(
                        id, NO_TOKEN, "c", new byte[RequestLimits.MAX_BOOTSTRAP_BLOB_BYTES + 1], Map.of())))
                .isEqualTo(RejectionReason.INVALID_ARGUMENT);
        assertThat(rejection(MutationRequest.configure(id, NO_TOKEN, "c".repeat(513), new byte[0], Map.of())))
                .isEqualTo(RejectionReason.INVALID_ARGUMENT);
        assertThat(rejection(MutationRequest.create("x".repeat(513), NO_TOKEN)))
                .isEqualTo(RejectionReason.INVALID_ARGUMENT);
        assertThat(engine.get(id).orElseThrow().state()).isEqualTo(MachineState.IDLE);
        // exactly at the limits is accepted
        Map<String, String> atLimit = new HashMap<>();
        for (int i = 0; i < RequestLimits.MAX_METADATA_ENTRIES; i++) {
            atLimit.put("k" + i, "v");
        }
        engine.mutate(MutationRequest.configure(
                id, NO_TOKEN, "c".repeat(512), new byte[RequestLimits.MAX_BOOTSTRAP_BLOB_BYTES], atLimit));
        assertThat(engine.get(id).orElseThrow().shardMetadata()).hasSize(RequestLimits.MAX_METADATA_ENTRIES);
    }

    @Test
    void pagingWithCursorsSeesEveryMachineOnceThenAnEmptyPage() {
        for (int max : new int[] {1, 3, 7, 20, 50}) {
            Set<String> seen = new HashSet<>();
            byte[] cursor = null;
            int pages = 0;
            while (true) {
                ListResult page = engine.list(new ListQuery(Set.of(), max, cursor));
                cursor = page.revision();
                if (page.machines().isEmpty()) {
                    break;
                }
                assertThat(page.machines()).hasSizeLessThanOrEqualTo(max);
                for (Machine m : page.machines()) {
                    assertThat(seen.add(m.id())).as("seen twice: %s", m.id()).isTrue();
                }
                assertThat(++pages).isLessThan(100);
            }
            assertThat(seen).containsExactlyInAnyOrderElementsOf(ids);
        }
    }

    @Test
    void aDeltaHoldsExactlyWhatChangedAndBadCursorsMeanAFullList() throws Exception {
        byte[] cursor = engine.list(new ListQuery(Set.of(), 0, null)).revision();
        assertThat(engine.list(new ListQuery(Set.of(), 0, cursor)).machines()).isEmpty();
        backend.script(ids.get(3), ScriptedBackend.Script.BLOCK);
        engine.mutate(MutationRequest.create(ids.get(3), NO_TOKEN));
        ListResult delta = engine.list(new ListQuery(Set.of(), 0, cursor));
        assertThat(delta.machines()).extracting(Machine::id).containsExactly(ids.get(3));
        assertThat(engine.list(new ListQuery(Set.of(), 0, delta.revision())).machines())
                .isEmpty();

        byte[] altered = delta.revision().clone();
        altered[3] ^= 1;
        assertThat(engine.list(new ListQuery(Set.of(), 0, altered)).machines()).hasSize(ids.size());
        assertThat(engine.list(new ListQuery(Set.of(), 0, new byte[] {0})).machines())
                .hasSize(ids.size());
        assertThat(engine.list(new ListQuery(Set.of(MachineState.CREATING), 0, null))
                        .machines())
                .extracting(Machine::id)
                .containsExactly(ids.get(3));
    }

    @Test
    void refreshingUnchangedFactsBumpsNoRevision() throws Exception {
        long before = engine.revision();
        assertThat(engine.refreshFacts(ids.get(0), m -> m.toBuilder().build())).isFalse();
        assertThat(engine.revision()).isEqualTo(before);
        assertThat(engine.refreshFacts(
                        ids.get(0), m -> m.toBuilder().pricePerHour(1.5).build()))
                .isTrue();
        assertThat(engine.revision()).isEqualTo(before + 1);
    }

    @Test
    void operationIdsAreDistinctAcrossMachinesAndTransitions() throws Exception {
        List<String> opIds = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            opIds.add(
                    engine.mutate(MutationRequest.create(ids.get(i), NO_TOKEN)).operationId());
        }
        awaitState(ids.get(0), MachineState.IDLE);
        opIds.add(engine.mutate(MutationRequest.configure(ids.get(0), NO_TOKEN, "c", new byte[0], Map.of()))
                .operationId());
        assertThat(new HashSet<>(opIds)).hasSize(opIds.size());
        assertThatThrownBy(() -> engine.mutate(MutationRequest.create("", NO_TOKEN)))
                .isInstanceOf(RejectedException.class);
    }
}
