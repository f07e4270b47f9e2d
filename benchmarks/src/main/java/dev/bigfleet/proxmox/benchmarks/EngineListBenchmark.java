package dev.bigfleet.proxmox.benchmarks;

import dev.bigfleet.proxmox.api.FenceToken;
import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.api.MachineState;
import dev.bigfleet.proxmox.engine.ListQuery;
import dev.bigfleet.proxmox.engine.MutationRequest;
import dev.bigfleet.proxmox.engine.RejectedException;
import java.nio.file.Files;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Server-side List latency over an engine with durable state (the percentiles of JMH's sample
 * mode): a delta List after 100 changes, timed once those transitions are done, and the full List.
 *
 * <pre>java -cp ... org.openjdk.jmh.Main EngineListBenchmark</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx4g")
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 5, time = 10)
public class EngineListBenchmark {
    static final int CHANGED = 100;

    @Param("100000")
    public int machines;

    BenchEngine bench;

    @Setup(Level.Trial)
    public void start() throws Exception {
        bench = new BenchEngine(Files.createTempDirectory("engine-lists").resolve("state.db"), machines);
    }

    @TearDown(Level.Trial)
    public void stop() {
        bench.close();
    }

    /** The cursor of a List taken before the next 100 machines changed (each created, or deleted again). */
    @State(Scope.Thread)
    public static class HundredChanged {
        byte[] cursor;
        int round;

        @Setup(Level.Invocation)
        public void change(EngineListBenchmark list) throws Exception {
            List<Machine> slots = list.bench.slots;
            cursor = list.bench.engine.currentCursor();
            int from = round++ * CHANGED % (slots.size() - CHANGED);
            for (int m = from; m < from + CHANGED; m++) {
                String id = slots.get(m).id();
                MachineState state = list.bench.engine.get(id).orElseThrow().state();
                try {
                    list.bench.engine.mutate(
                            state == MachineState.SPECULATIVE
                                    ? MutationRequest.create(id, FenceToken.NONE)
                                    : MutationRequest.delete(id, FenceToken.NONE));
                } catch (RejectedException e) {
                    throw new IllegalStateException(id + " in " + state, e);
                }
            }
            // the List is timed once the transitions are done, not against their commits
            for (int m = from; m < from + CHANGED; m++) {
                String id = slots.get(m).id();
                MachineState state;
                while ((state = list.bench.engine.get(id).orElseThrow().state()) != MachineState.IDLE
                        && state != MachineState.SPECULATIVE) {
                    Thread.sleep(1);
                }
            }
        }
    }

    @Benchmark
    public int deltaListOfAHundredChanges(HundredChanged changed) {
        return bench.engine
                .list(new ListQuery(Set.of(), 0, changed.cursor))
                .machines()
                .size();
    }

    @Benchmark
    public int fullList() {
        return bench.engine.list(new ListQuery(Set.of(), 0, null)).machines().size();
    }
}
