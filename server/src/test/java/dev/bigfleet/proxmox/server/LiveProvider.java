package dev.bigfleet.proxmox.server;

import static org.awaitility.Awaitility.await;

import com.google.protobuf.ByteString;
import dev.bigfleet.proxmox.proto.v1alpha1.CapacityProviderGrpc;
import dev.bigfleet.proxmox.proto.v1alpha1.ConfigureRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.CreateRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.DeleteRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.DrainRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineRef;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A provider started in this JVM through the real {@code main} wiring on ephemeral loopback ports,
 * with a gRPC client and plain HTTP helpers for the operator surface.
 */
public final class LiveProvider implements AutoCloseable {
    public final RunningProvider provider;
    public final ManagedChannel channel;
    public final CapacityProviderGrpc.CapacityProviderBlockingStub grpc;
    private final HttpClient http = HttpClient.newHttpClient();

    private LiveProvider(RunningProvider provider) {
        this.provider = provider;
        this.channel = ManagedChannelBuilder.forAddress("127.0.0.1", provider.grpcPort())
                .usePlaintext()
                .build();
        this.grpc = CapacityProviderGrpc.newBlockingStub(channel);
    }

    /** Starts on the fake backend; {@code extra} flags are appended. */
    public static LiveProvider start(String... extra) throws Exception {
        return startWith(List.of("--use-fake-backend"), extra);
    }

    /** Starts on backend {@code name} ({@code --proxmox-backend}); {@code extra} flags are appended. */
    public static LiveProvider startOn(String name, String... extra) throws Exception {
        return startWith(List.of("--proxmox-backend", name), extra);
    }

    private static LiveProvider startWith(List<String> backend, String... extra) throws Exception {
        List<String> args = new ArrayList<>(backend);
        args.addAll(List.of("--addr", "127.0.0.1:0", "--metrics-addr", "127.0.0.1:0"));
        if (!List.of(extra).contains("--reconcile-interval")) {
            args.addAll(List.of("--reconcile-interval", "0"));
        }
        args.addAll(List.of(extra));
        return new LiveProvider(ProviderMain.start(args.toArray(String[]::new)));
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + provider.httpPort().orElseThrow();
    }

    public HttpResponse<String> get(String path) throws Exception {
        return send("GET", path);
    }

    public HttpResponse<String> send(String method, String path) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl() + path))
                .method(method, HttpRequest.BodyPublishers.noBody())
                .timeout(Duration.ofSeconds(30))
                .build();
        return http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    public void create(String id) {
        grpc.create(CreateRequest.newBuilder().setMachineId(id).build());
    }

    public void configure(String id, String cluster, byte[] blob) {
        grpc.configure(ConfigureRequest.newBuilder()
                .setMachineId(id)
                .setClusterId(cluster)
                .setBootstrapBlob(ByteString.copyFrom(blob))
                .build());
    }

    public void drain(String id) {
        grpc.drain(DrainRequest.newBuilder().setMachineId(id).build());
    }

    public void delete(String id) {
        grpc.delete(DeleteRequest.newBuilder().setMachineId(id).build());
    }

    public MachineState state(String id) {
        return grpc.get(MachineRef.newBuilder().setId(id).build()).getState();
    }

    public void awaitState(String id, MachineState state) {
        await().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> state(id) == state);
    }

    /** Create, Configure, Drain and Delete one machine, waiting for each to land. */
    public void fullLifecycle(String id, byte[] blob) {
        create(id);
        awaitState(id, MachineState.MACHINE_STATE_IDLE);
        configure(id, "prod-1", blob);
        awaitState(id, MachineState.MACHINE_STATE_CONFIGURED);
        drain(id);
        awaitState(id, MachineState.MACHINE_STATE_IDLE);
        delete(id);
        awaitState(id, MachineState.MACHINE_STATE_SPECULATIVE);
    }

    @Override
    public void close() {
        try {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        provider.close();
    }
}
