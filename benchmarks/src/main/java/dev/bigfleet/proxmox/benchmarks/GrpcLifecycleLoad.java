package dev.bigfleet.proxmox.benchmarks;

import dev.bigfleet.proxmox.proto.v1alpha1.CapacityProviderGrpc;
import dev.bigfleet.proxmox.proto.v1alpha1.CapacityProviderGrpc.CapacityProviderStub;
import dev.bigfleet.proxmox.proto.v1alpha1.ConfigureRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.CreateRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.DeleteRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.DrainRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.ListFilter;
import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.TransitionAck;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The gRPC load of the throughput figures: {@code callers} callers, each with one call in flight
 * at all times, each owning every n-th machine and walking them round the lifecycle (Create,
 * Configure, Drain, Delete; one call per machine per lap). Callers are asynchronous, so the
 * load generator spends its share of the machine's two cores on calls, not on threads.
 */
final class GrpcLifecycleLoad implements AutoCloseable {
    /** Calls counted while measuring. */
    record Figures(double acknowledgedPerSecond, double refusedPerSecond) {}

    private final ManagedChannel channel;
    private final CapacityProviderStub stub;
    private final List<String> ids;
    private final AtomicLong acknowledged = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final AtomicLong inFlight = new AtomicLong();

    GrpcLifecycleLoad(int port) {
        // callbacks run on the transport thread: each issues its caller's next call at once
        channel = ManagedChannelBuilder.forAddress("127.0.0.1", port)
                .usePlaintext()
                .directExecutor()
                .maxInboundMessageSize(256 << 20)
                .build();
        stub = CapacityProviderGrpc.newStub(channel);
        ids =
                CapacityProviderGrpc.newBlockingStub(channel)
                        .list(ListFilter.getDefaultInstance())
                        .getMachinesList()
                        .stream()
                        .map(Machine::getId)
                        .toList();
    }

    int machines() {
        return ids.size();
    }

    /** Starts the callers; they run until {@link #close}. */
    void start(int callers) {
        for (int c = 0; c < callers; c++) {
            List<String> mine = new ArrayList<>();
            for (int i = c; i < ids.size(); i += callers) {
                mine.add(ids.get(i));
            }
            new Caller(mine).next();
        }
    }

    /** Counts calls for {@code seconds} from now. */
    Figures measure(int seconds) throws InterruptedException {
        long acked0 = acknowledged.get();
        long refused0 = refused.get();
        long start = System.nanoTime();
        Thread.sleep(seconds * 1000L);
        double elapsed = (System.nanoTime() - start) / 1e9;
        return new Figures((acknowledged.get() - acked0) / elapsed, (refused.get() - refused0) / elapsed);
    }

    /** Callers issue no further call; calls in flight still finish or fail. */
    void halt() {
        stop.set(true);
    }

    /** Halts, waits a little for calls in flight, and closes the channel. */
    @Override
    public void close() {
        halt();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (inFlight.get() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** One caller: its machines, the next call of each, and the machine it is at. */
    private final class Caller implements StreamObserver<TransitionAck> {
        private final List<String> mine;
        private final int[] nextStep;
        private int at;

        Caller(List<String> mine) {
            this.mine = mine;
            this.nextStep = new int[mine.size()];
        }

        void next() {
            if (stop.get() || mine.isEmpty()) {
                return;
            }
            inFlight.incrementAndGet();
            String id = mine.get(at);
            switch (nextStep[at]) {
                case 0 ->
                    stub.create(CreateRequest.newBuilder().setMachineId(id).build(), this);
                case 1 ->
                    stub.configure(
                            ConfigureRequest.newBuilder()
                                    .setMachineId(id)
                                    .setClusterId("bench")
                                    .putShardMetadata("pool", "general")
                                    .build(),
                            this);
                case 2 -> stub.drain(DrainRequest.newBuilder().setMachineId(id).build(), this);
                default ->
                    stub.delete(DeleteRequest.newBuilder().setMachineId(id).build(), this);
            }
        }

        @Override
        public void onNext(TransitionAck ack) {}

        @Override
        public void onCompleted() {
            acknowledged.incrementAndGet();
            nextStep[at] = (nextStep[at] + 1) % 4;
            advance();
        }

        @Override
        public void onError(Throwable t) {
            // still in its transition from the last lap (or the provider went away): next lap
            refused.incrementAndGet();
            advance();
        }

        private void advance() {
            inFlight.decrementAndGet();
            at = (at + 1) % mine.size();
            next();
        }
    }
}
