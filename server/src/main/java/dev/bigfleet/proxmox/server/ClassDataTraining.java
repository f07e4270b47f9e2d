package dev.bigfleet.proxmox.server;

import dev.bigfleet.proxmox.proto.v1alpha1.CapacityProviderGrpc;
import dev.bigfleet.proxmox.proto.v1alpha1.CapacityProviderGrpc.CapacityProviderBlockingStub;
import dev.bigfleet.proxmox.proto.v1alpha1.CreateRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.ListFilter;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A short provider life for {@code mvn package} to record the class-data archive from
 * ({@code -XX:ArchiveClassesAtExit}): start on the fake backend with a fresh state file, serve a
 * few calls over gRPC and HTTP, stop, and restart on that file, so the classes of a real start,
 * of a restart and of serving are in the archive and every start skips loading and verifying them.
 */
public final class ClassDataTraining {
    private ClassDataTraining() {}

    public static void main(String[] args) throws Exception {
        Path dir = Files.createTempDirectory("bigfleet-proxmox-training");
        try {
            String[] flags = {
                "--proxmox-backend",
                "fake",
                "--fake-latency",
                "0s",
                "--addr",
                "127.0.0.1:0",
                "--metrics-addr",
                "127.0.0.1:0",
                "--reconcile-interval",
                "0",
                "--state",
                dir.resolve("state.db").toString()
            };
            try (RunningProvider provider = ProviderMain.start(flags)) {
                exercise(provider);
            }
            try (RunningProvider provider = ProviderMain.start(flags)) {
                exercise(provider);
            }
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        System.exit(0);
    }

    private static void exercise(RunningProvider provider) throws Exception {
        ManagedChannel channel = ManagedChannelBuilder.forAddress("127.0.0.1", provider.grpcPort())
                .usePlaintext()
                .build();
        try {
            CapacityProviderBlockingStub grpc = CapacityProviderGrpc.newBlockingStub(channel);
            String id = grpc.list(ListFilter.newBuilder().setMaxResults(1).build())
                    .getMachines(0)
                    .getId();
            try {
                grpc.create(CreateRequest.newBuilder().setMachineId(id).build());
            } catch (io.grpc.StatusRuntimeException alreadyDone) {
                // the second life finds the machine created by the first
            }
            HttpClient http = HttpClient.newHttpClient();
            for (String path : new String[] {"/readyz", "/metrics", "/admin/", "/api/v1/summary", "/api/v1/machines"}) {
                http.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                                        + provider.httpPort().orElseThrow() + path))
                                .build(),
                        HttpResponse.BodyHandlers.discarding());
            }
        } finally {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
    }
}
