package dev.bigfleet.proxmox.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.server.config.ListenAddress;
import dev.bigfleet.proxmox.server.http.HttpResources;
import dev.bigfleet.proxmox.server.http.HttpServer;
import dev.bigfleet.proxmox.server.serving.ServingState;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.protobuf.services.HealthStatusManager;
import io.grpc.stub.StreamObserver;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** /readyz and gRPC health flip together: not ready, ready, not ready again at shutdown. */
class ServingStateTest {
    @Test
    void readinessAndGrpcHealthFlipAtTheSameMoments() throws Exception {
        HealthStatusManager health = new HealthStatusManager();
        ServingState serving = new ServingState(health);
        HttpServer server = new HttpServer(new ListenAddress("127.0.0.1", 0), HttpResources.create(serving));
        server.start();
        try {
            assertThat(readyz(server.port())).isEqualTo(503);
            assertThat(grpcHealth(health)).isEqualTo(ServingStatus.NOT_SERVING);
            serving.markReady();
            assertThat(readyz(server.port())).isEqualTo(200);
            assertThat(grpcHealth(health)).isEqualTo(ServingStatus.SERVING);
            serving.markNotReady();
            assertThat(readyz(server.port())).isEqualTo(503);
            assertThat(grpcHealth(health)).isEqualTo(ServingStatus.NOT_SERVING);
        } finally {
            server.stop();
        }
    }

    private static int readyz(int port) throws Exception {
        return HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/readyz"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .statusCode();
    }

    private static ServingStatus grpcHealth(HealthStatusManager health) {
        AtomicReference<ServingStatus> status = new AtomicReference<>();
        ((io.grpc.health.v1.HealthGrpc.HealthImplBase) health.getHealthService())
                .check(HealthCheckRequest.getDefaultInstance(), new StreamObserver<>() {
                    @Override
                    public void onNext(HealthCheckResponse value) {
                        status.set(value.getStatus());
                    }

                    @Override
                    public void onError(Throwable t) {
                        throw new AssertionError(t);
                    }

                    @Override
                    public void onCompleted() {}
                });
        return status.get();
    }
}
