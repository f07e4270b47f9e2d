package dev.bigfleet.proxmox.server.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.testing.TestingProvider;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Status;
import io.grpc.reflection.v1.ServerReflectionGrpc;
import io.grpc.reflection.v1.ServerReflectionRequest;
import io.grpc.reflection.v1.ServerReflectionResponse;
import io.grpc.reflection.v1.ServiceResponse;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** What {@code grpcurl list} sees: the provider, health and reflection itself; nothing with --reflection=false. */
class ReflectionTest {
    private static List<String> listServices(int port) throws Exception {
        ManagedChannel channel = ManagedChannelBuilder.forAddress("127.0.0.1", port)
                .usePlaintext()
                .build();
        try {
            CompletableFuture<List<String>> names = new CompletableFuture<>();
            StreamObserver<ServerReflectionRequest> requests = ServerReflectionGrpc.newStub(channel)
                    .serverReflectionInfo(new StreamObserver<>() {
                        @Override
                        public void onNext(ServerReflectionResponse r) {
                            names.complete(r.getListServicesResponse().getServiceList().stream()
                                    .map(ServiceResponse::getName)
                                    .toList());
                        }

                        @Override
                        public void onError(Throwable t) {
                            names.completeExceptionally(t);
                        }

                        @Override
                        public void onCompleted() {}
                    });
            requests.onNext(
                    ServerReflectionRequest.newBuilder().setListServices("").build());
            requests.onCompleted();
            return names.get(10, TimeUnit.SECONDS);
        } finally {
            channel.shutdownNow();
        }
    }

    @Test
    void reflectionListsTheProviderAndHealthServices() throws Exception {
        try (TestingProvider p = TestingProvider.builder().noHttp().seedCount(1).build()) {
            assertThat(listServices(p.grpcPort()))
                    .contains("bigfleet.v1alpha1.CapacityProvider", "grpc.health.v1.Health");
        }
    }

    @Test
    void reflectionCanBeTurnedOff() throws Exception {
        try (TestingProvider p = TestingProvider.builder()
                .noHttp()
                .seedCount(1)
                .flags("--reflection=false")
                .build()) {
            try {
                listServices(p.grpcPort());
                throw new AssertionError("reflection answered although it was turned off");
            } catch (java.util.concurrent.ExecutionException e) {
                assertThat(Status.fromThrowable(e.getCause()).getCode()).isEqualTo(Status.Code.UNIMPLEMENTED);
            }
        }
    }
}
