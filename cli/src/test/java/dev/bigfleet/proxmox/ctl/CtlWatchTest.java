package dev.bigfleet.proxmox.ctl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bigfleet.proxmox.proto.v1alpha1.CapacityProviderGrpc;
import dev.bigfleet.proxmox.proto.v1alpha1.CreateRequest;
import dev.bigfleet.proxmox.testing.TestingProvider;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code list --watch} prints the changes another client makes, as they land. */
class CtlWatchTest {
    private static TestingProvider provider;

    @BeforeAll
    static void start() throws Exception {
        provider = TestingProvider.builder()
                .noHttp()
                .seedCount(8)
                .fakeLatency(Duration.ofMillis(300))
                .build();
    }

    @AfterAll
    static void stop() {
        provider.close();
    }

    /** A watch running on its own thread until interrupted; its output so far. */
    private static final class RunningWatch implements AutoCloseable {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final CompletableFuture<Integer> exit = new CompletableFuture<>();
        final Thread thread;

        RunningWatch(String... args) {
            thread = new Thread(
                    () -> exit.complete(Bigfleetctl.run(new PrintWriter(out, true), new PrintWriter(err, true), args)));
            thread.start();
        }

        @Override
        public void close() throws ExecutionException, TimeoutException {
            thread.interrupt();
            try {
                assertThat(exit.get(10, TimeUnit.SECONDS)).as(err.toString()).isZero();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    private static void createByAnotherClient(String id) throws InterruptedException {
        ManagedChannel channel = ManagedChannelBuilder.forAddress("127.0.0.1", provider.grpcPort())
                .usePlaintext()
                .build();
        try {
            CapacityProviderGrpc.newBlockingStub(channel)
                    .create(CreateRequest.newBuilder().setMachineId(id).build());
        } finally {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void printsTheListThenEachChangeAnotherClientMakes() throws Exception {
        String id = "proxmox/OnDemand/pve.large/pve-a/000";
        try (RunningWatch watch = new RunningWatch(
                "list", "--watch", "--interval", "100ms", "--addr", "127.0.0.1:" + provider.grpcPort())) {
            await().atMost(Duration.ofSeconds(20))
                    .untilAsserted(() -> assertThat(watch.out.toString()).contains("8 machines; cursor"));
            createByAnotherClient(id);
            Pattern creating = Pattern.compile("(?m)^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ  " + Pattern.quote(id)
                    + "  SPECULATIVE -> CREATING$");
            Pattern idle = Pattern.compile("(?m)^\\S+  " + Pattern.quote(id) + "  CREATING -> IDLE  host=\\S+$");
            await().atMost(Duration.ofSeconds(20))
                    .untilAsserted(() -> assertThat(watch.out.toString())
                            .containsPattern(creating)
                            .containsPattern(idle));
        }
    }

    @Test
    void jsonWatchPrintsOneObjectPerLine() throws Exception {
        String id = "proxmox/OnDemand/pve.xlarge/pve-b/001";
        try (RunningWatch watch = new RunningWatch(
                "list",
                "--watch",
                "--state",
                "CREATING,IDLE",
                "-o",
                "json",
                "--interval",
                "100ms",
                "--addr",
                "127.0.0.1:" + provider.grpcPort())) {
            Thread.sleep(300);
            createByAnotherClient(id);
            await().atMost(Duration.ofSeconds(20))
                    .untilAsserted(() -> assertThat(watch.out.toString())
                            .containsPattern("(?m)^\\{\"time\":\"[^\"]+\",\"machine\":\\{\"id\":\"" + Pattern.quote(id)
                                    + "\",\"state\":\"MACHINE_STATE_IDLE\".*\\}\\}$"));
            assertThat(watch.out.toString().lines()).allMatch(l -> l.startsWith("{\"time\":"));
        }
    }
}
