package dev.bigfleet.proxmox.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bigfleet.proxmox.api.FenceToken;
import dev.bigfleet.proxmox.api.MachineState;
import dev.bigfleet.proxmox.engine.store.OperationRecord;
import dev.bigfleet.proxmox.engine.store.StateStore;
import dev.bigfleet.proxmox.engine.store.StoreWrite;
import dev.bigfleet.proxmox.engine.store.StoredCounters;
import dev.bigfleet.proxmox.engine.store.StoredMachine;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A mutation is answered only once its change is durable, without a thread waiting for that,
 * and the changes of one machine stay in order while another machine's go ahead.
 */
class DurableAcknowledgementTest {
    /** A store whose writes become durable when the test says so. */
    private static final class GatedStore implements StateStore {
        private record Held(StoreWrite write, CompletableFuture<Void> durable) {}

        private final ConcurrentLinkedQueue<Held> held = new ConcurrentLinkedQueue<>();
        private volatile boolean gated;

        @Override
        public Optional<StoredCounters> load(Consumer<StoredMachine> restore) {
            return Optional.empty();
        }

        @Override
        public byte[] cursorKey() {
            return new byte[32];
        }

        @Override
        public CompletableFuture<Void> write(StoreWrite write) {
            CompletableFuture<Void> durable = new CompletableFuture<>();
            held.add(new Held(write, durable));
            if (!gated) {
                release();
            }
            return durable;
        }

        int pending() {
            return held.size();
        }

        /** Makes every held write durable, in order, on the calling thread. */
        void release() {
            Held h;
            while ((h = held.poll()) != null) {
                h.write().afterDurable().run();
                h.durable().complete(null);
            }
        }

        void failNext(RuntimeException cause) {
            held.poll().durable().completeExceptionally(cause);
        }

        @Override
        public List<OperationRecord> operations(String machineId) {
            return List.of();
        }

        @Override
        public boolean isDurable() {
            return true;
        }

        @Override
        public void close() {}
    }

    private final GatedStore store = new GatedStore();
    private EngineUnderTest under;
    private LifecycleEngine engine;
    private List<String> ids;

    @BeforeEach
    void setUp() throws Exception {
        under = new EngineUnderTest(store, TransitionTimeouts.defaults(), 3);
        engine = under.engine;
        ids = under.ids;
        store.gated = true;
    }

    @AfterEach
    void tearDown() {
        store.gated = false;
        store.release();
        under.close();
    }

    @Test
    void anAcceptIsAnsweredOnlyOnceDurableAndIsInvisibleUntilThen() {
        String id = ids.get(0);
        CompletableFuture<Accepted> create = engine.mutateAsync(MutationRequest.create(id, FenceToken.NONE));
        assertThat(create).as("answered before durable").isNotDone();
        assertThat(engine.get(id).orElseThrow().state())
                .as("visible before durable")
                .isEqualTo(MachineState.SPECULATIVE);

        store.release();
        assertThat(create.join().machine().state()).isEqualTo(MachineState.CREATING);
        assertThat(engine.get(id).orElseThrow().state()).isIn(MachineState.CREATING, MachineState.IDLE);
    }

    @Test
    void aRetryWaitsForTheFirstCallAndGetsItsOperationWhileOtherMachinesGoAhead() {
        String first = ids.get(0);
        String other = ids.get(1);
        CompletableFuture<Accepted> create = engine.mutateAsync(MutationRequest.create(first, FenceToken.NONE));
        CompletableFuture<Accepted> retry = engine.mutateAsync(MutationRequest.create(first, FenceToken.NONE));
        CompletableFuture<Accepted> elsewhere = engine.mutateAsync(MutationRequest.create(other, FenceToken.NONE));
        assertThat(store.pending())
                .as("the retry queued nothing of its own yet")
                .isEqualTo(2);
        assertThat(retry).isNotDone();

        store.release();
        assertThat(retry.join().operationId()).isEqualTo(create.join().operationId());
        assertThat(elsewhere.join().operationId()).isNotEqualTo(create.join().operationId());
    }

    @Test
    void aWriteThatFailsIsRefusedAsUnavailableAndTheMachineIsUnchanged() {
        String id = ids.get(0);
        CompletableFuture<Accepted> create = engine.mutateAsync(MutationRequest.create(id, FenceToken.NONE));
        store.failNext(new IllegalStateException("disk full"));

        assertThat(create)
                .failsWithin(Duration.ofSeconds(5))
                .withThrowableThat()
                .havingCause()
                .isInstanceOfSatisfying(RejectedException.class, e -> {
                    assertThat(e.reason()).isEqualTo(RejectionReason.UNAVAILABLE);
                    assertThat(e.getMessage()).contains("disk full");
                });
        assertThat(engine.get(id).orElseThrow().state()).isEqualTo(MachineState.SPECULATIVE);
        // the failed call left no operation behind: the next Create is a fresh accept
        store.gated = false;
        store.release();
        Accepted again =
                engine.mutateAsync(MutationRequest.create(id, FenceToken.NONE)).join();
        assertThat(again.machine().state()).isEqualTo(MachineState.CREATING);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> engine.get(id).orElseThrow().state() == MachineState.IDLE);
    }
}
