package dev.bigfleet.proxmox.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class ChangeSequenceTest {
    private final ChangeSequence changes = new ChangeSequence();
    private final List<String> ran = new CopyOnWriteArrayList<>();

    @SuppressWarnings("FutureReturnValueIgnored") // the test watches the changes through their side effects
    @Test
    void aChangeWaitsUntilThePreviousOneHasFinishedAndRunsAtOnceWhenNothingIsPending() {
        CompletableFuture<Void> firstDone = new CompletableFuture<>();
        CompletableFuture<String> first = changes.then(() -> {
            ran.add("first");
            return firstDone.thenApply(v -> "one");
        });
        CompletableFuture<String> second = changes.then(() -> {
            ran.add("second");
            return CompletableFuture.completedFuture("two");
        });
        assertThat(ran).containsExactly("first");
        assertThat(second).isNotDone();

        firstDone.complete(null);
        assertThat(first.join()).isEqualTo("one");
        assertThat(second.join()).isEqualTo("two");
        assertThat(ran).containsExactly("first", "second");

        changes.then(() -> {
            ran.add("third");
            return CompletableFuture.completedFuture(null);
        });
        assertThat(ran).as("nothing pending: runs on the caller's thread").containsExactly("first", "second", "third");
    }

    @Test
    void aChangeThatThrowsOrFailsFailsAloneAndTheNextOneStillRuns() {
        CompletableFuture<Object> thrown = changes.then(() -> {
            throw new RejectedException(RejectionReason.CONFLICT, "no");
        });
        CompletableFuture<Object> failed =
                changes.then(() -> CompletableFuture.failedFuture(new IllegalStateException("bad")));
        CompletableFuture<String> next = changes.then(() -> CompletableFuture.completedFuture("ok"));

        assertThat(thrown).isCompletedExceptionally();
        assertThat(thrown.handle((v, e) -> e.getCause()))
                .isCompletedWithValueMatching(c -> c instanceof RejectedException);
        assertThat(failed.handle((v, e) -> e.getCause()))
                .isCompletedWithValueMatching(c -> c instanceof IllegalStateException);
        assertThat(next.join()).isEqualTo("ok");
    }
}
