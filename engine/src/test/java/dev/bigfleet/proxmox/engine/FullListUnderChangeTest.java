package dev.bigfleet.proxmox.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.api.FenceToken;
import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.api.MachineState;
import dev.bigfleet.proxmox.engine.store.InMemoryStateStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A full List taken while machines change holds every machine: a change moves its machine to a new
 * revision, and a List walking the index must see it at the old place or the new, never at neither.
 */
class FullListUnderChangeTest {
    private static final int MACHINES = 400;

    @Test
    void everyFullListHoldsEveryMachineWhileTheyChange() throws Exception {
        Duration timeout = Duration.ofSeconds(30);
        EngineUnderTest under = new EngineUnderTest(
                new InMemoryStateStore(), new TransitionTimeouts(timeout, timeout, timeout, timeout), MACHINES);
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> churn = new ArrayList<>();
        try {
            LifecycleEngine engine = under.engine;
            for (int t = 0; t < 2; t++) {
                int first = t;
                Thread thread = new Thread(() -> {
                    int i = first;
                    while (!stop.get()) {
                        String id = under.ids.get(i % MACHINES);
                        i += 2;
                        MachineState state = engine.get(id).orElseThrow().state();
                        try {
                            if (state == MachineState.SPECULATIVE) {
                                engine.mutate(MutationRequest.create(id, FenceToken.NONE));
                            } else if (state == MachineState.IDLE) {
                                engine.mutate(MutationRequest.delete(id, FenceToken.NONE));
                            }
                        } catch (RejectedException | RuntimeException e) {
                            // a machine mid-transition refuses; the next lap tries again
                        }
                    }
                });
                thread.start();
                churn.add(thread);
            }
            Set<String> all = new HashSet<>(under.ids);
            for (int lap = 0; lap < 300; lap++) {
                Set<String> listed = new HashSet<>();
                for (Machine m : engine.list(new ListQuery(Set.of(), 0, null)).machines()) {
                    listed.add(m.id());
                }
                assertThat(listed).as("full List %d", lap).isEqualTo(all);
            }
        } finally {
            stop.set(true);
            for (Thread t : churn) {
                t.join();
            }
            under.close();
        }
    }
}
