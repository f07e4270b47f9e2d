package dev.bigfleet.proxmox.benchmarks;

import dev.bigfleet.proxmox.api.FenceToken;
import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.engine.Accepted;
import dev.bigfleet.proxmox.engine.MutationRequest;
import dev.bigfleet.proxmox.engine.RejectedException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * Acknowledged mutations per second straight into the engine with durable state (SQLite, group
 * commit): the cost of rules, locks and writes without a gRPC round trip. 64 callers, each owning
 * every 64th machine and walking them round the lifecycle (Create, Configure, Drain, Delete); one
 * operation is one acknowledged call (a machine still in its last transition is skipped for the
 * next).
 *
 * <pre>java -cp ... org.openjdk.jmh.Main EngineMutationBenchmark</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Threads(EngineMutationBenchmark.CALLERS)
@Fork(value = 1, jvmArgsAppend = "-Xmx4g")
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 4, time = 5)
public class EngineMutationBenchmark {
    static final int CALLERS = 64;

    @Param({"1000", "100000"})
    public int machines;

    BenchEngine bench;

    @Setup(Level.Trial)
    public void start() throws Exception {
        bench = new BenchEngine(Files.createTempDirectory("engine-mutations").resolve("state.db"), machines);
    }

    @TearDown(Level.Trial)
    public void stop() {
        bench.close();
    }

    /** One caller's machines and where each stands in its lap. */
    @State(Scope.Thread)
    public static class Caller {
        List<String> mine;
        int[] next;
        int at;

        @Setup(Level.Trial)
        public void pick(EngineMutationBenchmark engine, ThreadParams thread) {
            mine = new ArrayList<>();
            List<Machine> slots = engine.bench.slots;
            for (int i = thread.getThreadIndex(); i < slots.size(); i += thread.getThreadCount()) {
                mine.add(slots.get(i).id());
            }
            next = new int[mine.size()];
        }
    }

    @Benchmark
    public Accepted acknowledgedMutation(Caller caller) {
        while (true) {
            int at = caller.at;
            caller.at = (at + 1) % caller.mine.size();
            try {
                Accepted accepted = bench.engine.mutate(request(caller.mine.get(at), caller.next[at]));
                caller.next[at] = (caller.next[at] + 1) % 4;
                return accepted;
            } catch (RejectedException stillInTransition) {
                // its last transition is still running: on to the caller's next machine
            }
        }
    }

    private static MutationRequest request(String id, int step) {
        switch (step) {
            case 0:
                return MutationRequest.create(id, FenceToken.NONE);
            case 1:
                return MutationRequest.configure(id, FenceToken.NONE, "bench", new byte[0], Map.of("pool", "general"));
            case 2:
                return MutationRequest.drain(id, FenceToken.NONE, 0);
            default:
                return MutationRequest.delete(id, FenceToken.NONE);
        }
    }
}
